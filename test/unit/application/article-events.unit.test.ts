import { eventsOfWrite } from '../../../src/application';
import type { Article } from '../../../src/domain';

const AT = new Date('2026-06-01T12:00:00.000Z');
const EARLIER = new Date('2026-06-01T11:00:00.000Z');
const LATER = new Date('2026-06-01T13:00:00.000Z');

const article = (publishedAt: Date | null): Article => ({
  id: 1,
  title: 'Hello',
  description: 'd',
  content: 'c',
  publishedAt,
  featured: false,
  slug: 'hello',
  tags: [],
  categories: [],
  createdAt: EARLIER,
  updatedAt: EARLIER,
  version: 1,
  author: null,
});
const draft = article(null);
const published = article(EARLIER);
const scheduled = article(LATER);

const kinds = (before: Article | null, after: Article | null) =>
  eventsOfWrite(before, after, AT).map((event) => [event.type, event.occurredAt.toISOString()]);

/** api.md "Webhooks": which writes send which events. */
describe('eventsOfWrite', () => {
  it.each([
    ['a create that publishes', null, published, [['article.published', AT]]],
    ['a create of a draft', null, draft, []],
    ['a create that schedules: published at its time', null, scheduled, [['article.published', LATER]]],
    ['an update of a published article', published, published, [['article.updated', AT]]],
    ['a draft published', draft, published, [['article.published', AT]]],
    ['a scheduled article published now', scheduled, published, [['article.published', AT]]],
    ['a published article made a draft', published, draft, [['article.unpublished', AT]]],
    [
      'a published article scheduled again: unpublished now, published at its time',
      published,
      scheduled,
      [
        ['article.unpublished', AT],
        ['article.published', LATER],
      ],
    ],
    ['a draft edited', draft, draft, []],
    ['a draft scheduled', draft, scheduled, [['article.published', LATER]]],
    ['a scheduled article edited: its schedule emitted again', scheduled, scheduled, [['article.published', LATER]]],
    ['a scheduled article made a draft', scheduled, draft, []],
    ['a published article deleted', published, null, [['article.deleted', AT]]],
    ['a draft deleted', draft, null, []],
    ['a scheduled article deleted', scheduled, null, []],
  ] as const)('%s', (_name, before, after, expected) => {
    expect(kinds(before, after)).toEqual(expected.map(([type, time]) => [type, time.toISOString()]));
  });

  it('carries the article right after the write, and for a delete as it was', () => {
    const edited = { ...published, title: 'edited' };
    expect(eventsOfWrite(published, edited, AT)[0]?.article).toBe(edited);
    expect(eventsOfWrite(published, null, AT)[0]?.article).toBe(published);
  });
});
