import fc from 'fast-check';
import { type ArticleRepository, type VisibleArticlesPage } from '../../../src/application';
import { type Article, foldForSearch } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** The text search of a page (q, folded by foldForSearch): what it finds and how it combines with the filters. */
export function searchContract(open: OpenContractSubject): void {
  describe('search (q, folded by foldForSearch)', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    const ids = (articles: readonly Article[]) => articles.map((article) => article.id);
    /** The ids of the visible articles whose text contains q, as the use case asks for them. */
    const search = (
      q: string,
      filter: Omit<VisibleArticlesPage, 'limit' | 'foldedQuery' | 'moment'> & { limit?: number } = {},
    ) =>
      repository.listVisible({ moment: READ_MOMENT, limit: 100, ...filter, foldedQuery: foldForSearch(q) }).then(ids);
    const withContent = (content: string) => repository.create(aNewArticle().with({ content }).build());

    it('ignores case as toLowerCase does, in ASCII and beyond', async () => {
      const ascii = await repository.create(aNewArticle().with({ title: 'TypeScript tips' }).build());
      const german = await withContent('GRÜSSE AUS KÖLN');
      const greek = await withContent('Η ΣΟΦΙΑ');
      const turkish = await withContent('İstanbul');
      await withContent('Some content');

      for (const q of ['TypeScript', 'typescript', 'TYPESCRIPT', 'tYpEsCrIpT']) {
        await expect(search(q)).resolves.toEqual([ascii.id]);
      }
      await expect(search('grüsse aus köln')).resolves.toEqual([german.id]);
      await expect(search('Köln')).resolves.toEqual([german.id]);
      await expect(search('σοφια')).resolves.toEqual([greek.id]);
      // toLowerCase turns İ into i + U+0307 (no locale): İSTANBUL finds it, a plain "istanbul" does not.
      await expect(search('İSTANBUL')).resolves.toEqual([turkish.id]);
      await expect(search('istanbul')).resolves.toEqual([]);
    });

    it('keeps accents: Café finds café and CAFÉ, not cafe', async () => {
      const lower = await withContent('un café noir');
      const upper = await withContent('UN CAFÉ NOIR');
      const plain = await withContent('un cafe noir');

      await expect(search('Café')).resolves.toEqual([lower.id, upper.id]);
      await expect(search('cafe')).resolves.toEqual([plain.id]);
      await expect(search('é')).resolves.toEqual([lower.id, upper.id]);
    });

    it('finds CJK text, two characters or more', async () => {
      const blog = await withContent('这是我的博客文章');
      const other = await withContent('博物馆的客人');
      await expect(search('博客')).resolves.toEqual([blog.id]);
      await expect(search('我的博客')).resolves.toEqual([blog.id]);
      await expect(search('博')).resolves.toEqual([blog.id, other.id]);
    });

    it('searches title, description and content, each on its own', async () => {
      const inTitle = await repository.create(
        aNewArticle().with({ title: 'Needle here', description: 'zzz', content: 'yyy' }).build(),
      );
      const inDescription = await repository.create(
        aNewArticle().with({ title: null, description: 'a needle there', content: 'yyy' }).build(),
      );
      const inContent = await repository.create(
        aNewArticle().with({ title: 'T', description: 'zzz', content: 'the NEEDLE' }).build(),
      );
      await expect(search('needle')).resolves.toEqual([inTitle.id, inDescription.id, inContent.id]);
      // The end of one field and the start of the next are not one text.
      const split = await repository.create(
        aNewArticle().with({ title: 'ab', description: 'cd', content: 'ef' }).build(),
      );
      await expect(search('bc')).resolves.toEqual([]);
      await expect(search('abcd')).resolves.toEqual([]);
      await expect(search('cdef')).resolves.toEqual([]);
      await expect(search('ab')).resolves.toEqual([split.id]);
    });

    it('takes every character literally: % _ \\ * quotes, and inner spaces', async () => {
      const percent = await withContent('100% sure');
      await withContent('1000 sure');
      const underscore = await withContent('snake_case');
      await withContent('snakeXcase');
      const backslash = await withContent('C:\\temp\\x');
      await withContent('C:/temp/x');
      const star = await withContent('a*b');
      await withContent('aXXb');
      const quotes = await withContent(`it's "quoted"`);
      const spaced = await withContent('say hello world');
      await withContent('hello  world, world hello');

      await expect(search('%')).resolves.toEqual([percent.id]);
      await expect(search('0% s')).resolves.toEqual([percent.id]);
      await expect(search('_')).resolves.toEqual([underscore.id]);
      await expect(search('e_c')).resolves.toEqual([underscore.id]);
      await expect(search('\\')).resolves.toEqual([backslash.id]);
      await expect(search(':\\temp\\')).resolves.toEqual([backslash.id]);
      await expect(search('*')).resolves.toEqual([star.id]);
      await expect(search('a*b')).resolves.toEqual([star.id]);
      await expect(search("'")).resolves.toEqual([quotes.id]);
      await expect(search('"')).resolves.toEqual([quotes.id]);
      await expect(search(`'s "quoted"`)).resolves.toEqual([quotes.id]);
      await expect(search('"quoted" OR x')).resolves.toEqual([]);
      await expect(search('hello world')).resolves.toEqual([spaced.id]);
      await expect(search('%%%')).resolves.toEqual([]);
      await expect(search('___')).resolves.toEqual([]);
    });

    it('tells U+FFFF and U+FFFE from U+FFFD, in pages and in the whole list (issue 26)', async () => {
      // FTS5's trigram tokenizer reads both noncharacters as U+FFFD: its match alone is not enough.
      // The repro: no article holds "qv\uFFFDw".
      await withContent('Qv\uFFFFw');
      await expect(search('qv\uFFFDw')).resolves.toEqual([]);

      await withContent('Qv\uFFFEw');
      const replacement = await withContent('Qv\uFFFDw');
      const query = foldForSearch('qv\uFFFDw');
      await expect(search('qv\uFFFDw')).resolves.toEqual([replacement.id]);
      await expect(search('qv\uFFFDw', { limit: 1 })).resolves.toEqual([replacement.id]);
      const streamed: Article[] = [];
      for await (const chunk of repository.streamVisible({ moment: READ_MOMENT, foldedQuery: query }))
        streamed.push(...chunk);
      expect(ids(streamed)).toEqual([replacement.id]);
    });

    it('follows updates: text removed is no longer found, text added is', async () => {
      const article = await repository.create(
        aNewArticle().with({ title: 'Old title', description: 'old words', content: 'old body' }).build(),
      );
      await expect(search('old')).resolves.toEqual([article.id]);

      await repository.update(
        article.id,
        someChanges().with({ title: 'New title', content: 'new body' }).build(),
        undefined,
        ANY_WRITER,
      );
      // Still in the description, which the update left alone.
      await expect(search('old')).resolves.toEqual([article.id]);
      await expect(search('new body')).resolves.toEqual([article.id]);
      await expect(search('old body')).resolves.toEqual([]);

      await repository.update(
        article.id,
        someChanges().with({ description: 'fresh', title: null }).build(),
        undefined,
        ANY_WRITER,
      );
      await expect(search('old')).resolves.toEqual([]);
      await expect(search('title')).resolves.toEqual([]);
      await expect(search('fresh')).resolves.toEqual([article.id]);

      // An update that does not touch the text keeps it findable.
      await repository.update(article.id, someChanges().replacingTags('t').build(), undefined, ANY_WRITER);
      await expect(search('fresh')).resolves.toEqual([article.id]);
    });

    it('forgets a deleted article and skips invisible ones', async () => {
      const kept = await withContent('needle one');
      const deleted = await withContent('needle two');
      await repository.create(aNewArticle().invisible().with({ content: 'needle three' }).build());
      await repository.delete(deleted.id, new Date(), undefined, ANY_WRITER);
      await expect(search('needle')).resolves.toEqual([kept.id]);
      await expect(search('two')).resolves.toEqual([]);
    });

    it('combines with tag, category, after and limit', async () => {
      const a = await repository.create(
        aNewArticle().with({ content: 'rust' }).withTags('t1').withCategories('c1').build(),
      );
      const b = await repository.create(
        aNewArticle().with({ content: 'rust' }).withTags('t1').withCategories('c2').build(),
      );
      const c = await repository.create(
        aNewArticle().with({ content: 'rust' }).withTags('t2').withCategories('c1').build(),
      );
      await repository.create(aNewArticle().with({ content: 'go' }).withTags('t1').withCategories('c1').build());

      await expect(search('Rust', { tagName: 't1' })).resolves.toEqual([a.id, b.id]);
      await expect(search('Rust', { categoryName: 'c1' })).resolves.toEqual([a.id, c.id]);
      await expect(search('Rust', { tagName: 't1', categoryName: 'c1' })).resolves.toEqual([a.id]);
      await expect(search('Rust', { afterId: a.id })).resolves.toEqual([b.id, c.id]);
      await expect(search('Rust', { limit: 1, afterId: a.id })).resolves.toEqual([b.id]);
      await expect(search('Rust', { tagName: 'nope' })).resolves.toEqual([]);
      // Short queries (under 3 code points) combine the same way.
      await expect(search('ru', { tagName: 't1', categoryName: 'c1' })).resolves.toEqual([a.id]);
      await expect(search('ru', { afterId: a.id, limit: 1 })).resolves.toEqual([b.id]);
    });

    it('finds matches far apart, past a long run of articles that do not match', async () => {
      const first = await withContent('needle 1');
      for (let n = 0; n < 600; n++) await withContent(`hay ${n}`);
      const second = await withContent('needle 2');
      const third = await withContent('needle 3');
      await expect(search('needle', { limit: 2 })).resolves.toEqual([first.id, second.id]);
      await expect(search('needle', { limit: 2, afterId: second.id })).resolves.toEqual([third.id]);
      await expect(search('needle', { limit: 2, afterId: first.id })).resolves.toEqual([second.id, third.id]);
      await expect(search('ne', { limit: 2 })).resolves.toEqual([first.id, second.id]);
    });

    it('agrees with toLowerCase().includes() on random text of confusable characters', async () => {
      // Characters whose folding differs between JavaScript, PostgreSQL locales and SQLite, and
      // the pattern characters of LIKE, GLOB and FTS5 queries.
      const alphabet = [...'aAéÉiIİıßẞΣσςKk博客%_\\*"\' ?'];
      const text = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 12 }).map((c) => c.join(''));
      const created: { id: number; texts: string[] }[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(text, text, text),
          fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(5), fc.boolean()), { minLength: 1, maxLength: 4 }),
          async ([title, description, content], picks) => {
            const article = await repository.create(aNewArticle().with({ title, description, content }).build());
            created.push({ id: article.id, texts: [title, description, content] });
            for (const [which, start, length, upper] of picks) {
              const source = created[which % created.length]?.texts[which % 3] ?? '';
              const slice = [...source].slice(start % source.length, (start % source.length) + 1 + length).join('');
              const q = (upper ? slice.toUpperCase() : slice).trim();
              if (q.length === 0) continue;
              const expected = created
                .filter((a) => a.texts.some((t) => t.toLowerCase().includes(q.toLowerCase())))
                .map((a) => a.id);
              await expect(search(q, { limit: 100 })).resolves.toEqual(expected.slice(0, 100));
            }
          },
        ),
        { numRuns: 40, seed: 18 },
      );
    });

    it('pages through every match once, by id, long and short queries alike', async () => {
      const matching: number[] = [];
      for (let n = 0; n < 13; n++) {
        const hit = n % 3 !== 1;
        const article = await withContent(hit ? `Match ${n}` : `other ${n}`);
        if (hit) matching.push(article.id);
      }
      for (const q of ['match', 'ma']) {
        const seen: number[] = [];
        let afterId: number | undefined;
        for (;;) {
          const page = await search(q, { limit: 2, afterId });
          seen.push(...page);
          if (page.length < 2) break;
          afterId = page[page.length - 1];
        }
        expect(seen).toEqual(matching);
      }
    });
  });
}
