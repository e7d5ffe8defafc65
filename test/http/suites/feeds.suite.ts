import type { StorageKind } from '../../support/http-harness';
import { TestClock } from '../../support/test-clock';
import { failureBody, useHarness } from './harness-per-suite';

const FEEDS = [
  ['/feeds/rss.xml', 'application/rss+xml; charset=utf-8'],
  ['/feeds/atom.xml', 'application/atom+xml; charset=utf-8'],
  ['/feeds/feed.json', 'application/feed+json; charset=utf-8'],
] as const;
const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;
const SECOND = 1_000;

/**
 * api.md "Feeds": the three formats, their filters, links and validators. What real consumers
 * make of them (schema, parsers, awkward text) is feed-consumers.http.test.ts.
 */
export function feedsSuite(kind: StorageKind): void {
  describe('feeds', () => {
    const clock = new TestClock('2026-05-01T10:00:00.000Z');
    const harness = useHarness(
      kind,
      {
        feeds: {
          publicUrl: 'https://blog.example',
          articleUrlTemplate: 'https://blog.example/p/{id}/{slug}',
          size: 2,
          title: 'Notes',
        },
      },
      { clock },
    );
    const http = () => harness().http();
    const create = async (title: string, extra: Record<string, unknown> = {}) => {
      clock.advance(SECOND);
      return (
        await http()
          .post('/article/create')
          .send({ title, content: `${title} body`, ...extra })
          .expect(201)
      ).body.data;
    };
    beforeEach(() => clock.set('2026-05-01T10:00:00.000Z'));

    it.each(FEEDS)(
      '%s answers the latest FEED_SIZE published articles, newest first, not wrapped',
      async (path, type) => {
        await create('one');
        await create('draft', { visible: false });
        await create('two', { tag: [{ name: 'ts' }] });
        await create('three');
        const answer = await http().get(path).expect(200).expect('Content-Type', type);
        const text = answer.text;
        expect(text.indexOf('three')).toBeGreaterThan(-1);
        expect(text.indexOf('three')).toBeLessThan(text.indexOf('two'));
        expect(text).not.toContain('one body');
        expect(text).not.toContain('draft');
        expect(text).not.toContain('statusCode');
        expect(answer.headers.etag).toMatch(STRONG_TAG);
        expect(answer.headers['last-modified']).toBe('Fri, 01 May 2026 10:00:04 GMT');
      },
    );

    it('links to PUBLIC_URL and ARTICLE_URL_TEMPLATE, with ids unchanged by a new slug', async () => {
      const article = await create('Hello world', { tag: [{ name: 'ts' }], category: [{ name: 'dev' }] });
      const feed = async () => (await http().get('/feeds/feed.json?tag=ts&unknown=1').expect(200)).body;
      const before = await feed();
      expect(before).toMatchObject({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'Notes',
        home_page_url: 'https://blog.example',
        feed_url: 'https://blog.example/feeds/feed.json?tag=ts&unknown=1',
        items: [
          {
            id: `tag:blog.example,2026:article:${article.id}`,
            url: `https://blog.example/p/${article.id}/hello-world`,
            title: 'Hello world',
            content_text: 'Hello world body',
            date_published: article.publishedAt,
            date_modified: article.updatedAt,
            tags: ['ts', 'dev'],
          },
        ],
      });
      clock.advance(SECOND);
      await http().post('/article/update').send({ id: article.id, slug: 'renamed' }).expect(200);
      const after = await feed();
      expect(after.items[0]).toMatchObject({
        id: before.items[0].id,
        url: `https://blog.example/p/${article.id}/renamed`,
      });
    });

    it('filters by tag, category, featured and author; a bad or repeated filter is a 400 in the wrapper', async () => {
      await create('tagged', { tag: [{ name: 'ts' }] });
      await create('starred', { featured: true, category: [{ name: 'dev' }] });
      const titles = async (query: string) =>
        (await http().get(`/feeds/feed.json${query}`).expect(200)).body.items.map(
          (item: { title: string }) => item.title,
        );
      await expect(titles('?tag=ts')).resolves.toEqual(['tagged']);
      await expect(titles('?category=dev')).resolves.toEqual(['starred']);
      await expect(titles('?featured=true')).resolves.toEqual(['starred']);
      await expect(titles('?author=nobody')).resolves.toEqual([]);
      await expect(titles('?limit=0&order=sideways')).resolves.toEqual(['starred', 'tagged']);
      for (const [path] of FEEDS) {
        for (const [query, parameter] of [
          ['?featured=yes', 'featured'],
          ['?tag=a&tag=b', 'tag'],
          ['?author=Not%20A%20Slug', 'author'],
        ]) {
          const refused = await http()
            .get(`${path}${query}`)
            .expect(400)
            .expect('Content-Type', /^application\/json/);
          expect(refused.body).toEqual(failureBody(new RegExp(`^${parameter}: `)));
        }
      }
    });

    it.each(FEEDS)(
      '%s answers 304 to If-None-Match naming its ETag, and to If-Modified-Since without it',
      async (path) => {
        await create('one');
        const first = await http().get(path).expect(200);
        const etag = first.headers.etag as string;
        const lastModified = first.headers['last-modified'] as string;
        const notModified = await http().get(path).set('If-None-Match', `"other", ${etag}`).expect(304);
        expect(notModified.text ?? '').toBe('');
        expect(notModified.headers).toMatchObject({ etag, 'last-modified': lastModified });
        await http().get(path).set('If-Modified-Since', lastModified).expect(304);
        // If-None-Match decides when present (RFC 9110 §13.1.3).
        await http().get(path).set('If-None-Match', '"other"').set('If-Modified-Since', lastModified).expect(200);
        await http().get(path).set('If-Modified-Since', 'yesterday').expect(200);
        await http().get(path).set('If-Modified-Since', 'Fri, 01 May 2026 10:00:00 GMT').expect(200);

        // A write that alters the feed: new validators, and the old ones no longer match.
        await create('two');
        const second = await http().get(path).set('If-None-Match', etag).expect(200);
        expect(second.headers.etag).not.toBe(etag);
        expect(second.headers['last-modified']).toBe('Fri, 01 May 2026 10:00:02 GMT');
        await http().get(path).set('If-Modified-Since', lastModified).expect(200);
      },
    );

    it('keeps its validators through writes that do not alter it, and moves Last-Modified when an entry leaves', async () => {
      const kept = await create('kept', { tag: [{ name: 'ts' }] });
      const leaving = await create('leaving', { tag: [{ name: 'ts' }] });
      const read = () => http().get('/feeds/atom.xml?tag=ts').expect(200);
      const before = await read();
      await create('elsewhere');
      const draft = await create('draft', { visible: false, tag: [{ name: 'ts' }] });
      await http().post('/article/delete').send({ id: draft.id }).expect(200);
      const unchanged = await read();
      expect(unchanged.headers).toMatchObject({
        etag: before.headers.etag,
        'last-modified': before.headers['last-modified'],
      });

      clock.set('2026-05-01T11:00:00.000Z');
      await http().post('/article/delete').send({ id: leaving.id }).expect(200);
      const after = await read();
      expect(after.headers['last-modified']).toBe('Fri, 01 May 2026 11:00:00 GMT');
      expect(after.text).toContain(`article:${kept.id}<`);
      expect(after.text).not.toContain(`article:${leaving.id}<`);
      expect(after.text).toContain('<updated>2026-05-01T11:00:00.000Z</updated>');
    });

    it('brings a scheduled article in at its publishedAt, which is then its Last-Modified', async () => {
      await create('now');
      await create('scheduled', { publishedAt: '2026-05-01T12:00:00.000Z' });
      const before = await http().get('/feeds/rss.xml').expect(200);
      expect(before.text).not.toContain('scheduled');
      clock.set('2026-05-01T12:00:30.000Z');
      const after = await http()
        .get('/feeds/rss.xml')
        .set('If-Modified-Since', before.headers['last-modified'] as string)
        .expect(200);
      expect(after.text).toContain('<title>scheduled</title>');
      expect(after.headers['last-modified']).toBe('Fri, 01 May 2026 12:00:00 GMT');
      expect(after.text).toContain('<lastBuildDate>Fri, 01 May 2026 12:00:00 GMT</lastBuildDate>');
    });
  });
}
