import fc from 'fast-check';
import type { Article, Term } from '../../../src/domain';
import { articleJsonText, presentArticle } from '../../../src/interfaces/http/presenters';

/** Any text, lone surrogates and control characters included: JSON.stringify escapes them all. */
const text = fc.string({ unit: 'binary', maxLength: 40 });
const term: fc.Arbitrary<Term> = fc.record({
  id: fc.string({ minLength: 1, maxLength: 24 }),
  name: text,
  description: fc.option(text, { nil: null }),
});
const instant = fc.date({
  min: new Date('1970-01-01T00:00:00.000Z'),
  max: new Date('9999-12-31T23:59:59.999Z'),
  noInvalidDate: true,
});
const article: fc.Arbitrary<Article> = fc.record({
  id: fc.integer({ min: 1, max: 2_147_483_647 }),
  title: fc.option(text, { nil: null }),
  description: text,
  content: text,
  publishedAt: fc.option(instant, { nil: null }),
  featured: fc.boolean(),
  slug: fc.stringMatching(/^[a-z0-9]{1,20}(-[a-z0-9]{1,20}){0,3}$/),
  tags: fc.array(term, { maxLength: 4 }),
  categories: fc.array(term, { maxLength: 3 }),
  createdAt: instant,
  updatedAt: instant,
  version: fc.nat(),
  author: fc.option(fc.record({ id: fc.string({ minLength: 1, maxLength: 24 }), name: text, slug: text }), {
    nil: null,
  }),
});

describe('articleJsonText (the whole list writes each article with it)', () => {
  it('is exactly JSON.stringify of the presented article, whatever the text', () => {
    fc.assert(
      fc.property(article, instant, (value, moment) => {
        expect(articleJsonText(value, moment)).toBe(JSON.stringify(presentArticle(value, moment)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('is exactly that also when the article was never edited and published as it was created (its instants equal)', () => {
    fc.assert(
      fc.property(article, instant, (value, moment) => {
        const created = value.createdAt.getTime();
        const unedited = { ...value, updatedAt: new Date(created), publishedAt: new Date(created) };
        expect(articleJsonText(unedited, moment)).toBe(JSON.stringify(presentArticle(unedited, moment)));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a term shared by many articles the same in each (its text is kept per term object)', () => {
    const shared: Term = { id: 't1', name: 'dev "ops"', description: null };
    const first = { id: 1, title: null, description: 'd', content: 'c', featured: false, slug: 'a', tags: [shared] };
    const dates = {
      publishedAt: new Date(0),
      createdAt: new Date(0),
      updatedAt: new Date(1),
      version: 1,
      author: null,
    };
    const texts = [1, 2, 3].map((id) => articleJsonText({ ...first, ...dates, categories: [], id }, new Date(2)));
    expect(texts.map((t) => JSON.parse(t).tag)).toEqual([[shared], [shared], [shared]]);
  });
});
