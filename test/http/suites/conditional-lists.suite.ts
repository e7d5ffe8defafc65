import type { AppConfig } from '../../../src/infrastructure/config/config';
import type { StorageKind } from '../../support/http-harness';
import { useHarness } from './harness-per-suite';

/** What clients send beside a manual If-None-Match: `no-cache` from Node's fetch, `max-age=0` from Chromium's. */
const CACHE_CONTROLS = [undefined, 'no-cache', 'max-age=0', 'no-store'];
const WEAK_TAG = /^W\/"[A-Za-z0-9_-]{22}"$/;

/**
 * On PostgreSQL the version is the server's snapshot, which writes to other databases on the same
 * server move too (other test files run beside this one), and then a tag just read is no longer
 * current. A few tries find a quiet moment; a tag that never matched would fail every one.
 */
const QUIET_TRIES = 20;

/** Whole lists (streamed or kept), pages, filters and search. */
const LISTS = ['/article', '/article?limit=2', '/article?limit=2&after=1', '/article?tag=ts', '/article?q=FIRST'];

/** api.md: lists and pages carry a weak ETag of the data they were read from; If-None-Match naming it is a 304. */
export function conditionalListsSuite(kind: StorageKind): void {
  const withCache: Array<[string, Partial<AppConfig>]> = [
    ['the list cache on', {}],
    ['LIST_CACHE_SIZE=0', { listCacheBytes: 0 }],
  ];
  describe.each(withCache)('If-None-Match on lists and pages, %s', (_name, config) => {
    const harness = useHarness(kind, config);
    const get = (path: string, headers: Record<string, string | undefined> = {}) => {
      const call = harness().http().get(path);
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) call.set(name, value);
      return call;
    };
    const create = (title: string, tag: string[] = []) =>
      harness()
        .http()
        .post('/article/create')
        .send({ title, content: 'c', tag: tag.map((name) => ({ name })) })
        .expect(201);
    const expectNotModified = (response: { status: number; text?: string; headers: Record<string, string> }) => {
      expect(response.status).toBe(304);
      expect(response.text ?? '').toBe('');
      expect(response.headers['content-length'] ?? '0').toBe('0');
    };
    beforeEach(async () => {
      await create('first', ['ts']);
      await create('second', ['ts']);
      await create('third');
    });

    /**
     * Reads `path`, then asks again with If-None-Match built from its ETag by `condition`, until
     * that is a 304 (answered with the ETag, no body). Each miss must be a 200 with another tag:
     * the data's version moved in between.
     */
    const revalidated = async (path: string, condition: (etag: string) => string, cacheControl?: string) => {
      for (let attempt = 1; ; attempt++) {
        const answer = await get(path).expect(200);
        const etag = answer.headers.etag ?? '';
        expect({ path, etag }).toEqual({ path, etag: expect.stringMatching(WEAK_TAG) });
        const again = await get(path, { 'If-None-Match': condition(etag), 'Cache-Control': cacheControl });
        if (again.status === 304 || attempt === QUIET_TRIES) {
          expect({ path, cacheControl, status: again.status }).toEqual({ path, cacheControl, status: 304 });
          expectNotModified(again);
          expect(again.headers.etag).toBe(etag);
          return;
        }
        expect(again.status).toBe(200);
        expect(again.headers.etag).not.toBe(etag);
      }
    };

    it('sends a weak ETag with every list and page; sent back, it gets 304 with that ETag and no body', async () => {
      for (const path of LISTS) {
        // Twice: with the cache on, the second whole list is the kept answer.
        for (let read = 0; read < 2; read++) {
          for (const cacheControl of CACHE_CONTROLS) await revalidated(path, (etag) => etag, cacheControl);
        }
      }
    });

    it('gives the same data the same tag, and compares weakly, in a list of tags, or `*`', async () => {
      let same = false;
      for (let attempt = 0; attempt < QUIET_TRIES && !same; attempt++) {
        const [one, two] = [await get('/article').expect(200), await get('/article').expect(200)];
        same = one.headers.etag === two.headers.etag;
      }
      expect(same).toBe(true);
      const conditions = [
        (etag: string) => etag.slice(2),
        (etag: string) => `"other", ${etag}`,
        (etag: string) => ` "x" ,${etag.slice(2)} `,
      ];
      for (const path of ['/article', '/article?limit=2']) {
        for (const condition of conditions) await revalidated(path, condition);
        expectNotModified(await get(path, { 'If-None-Match': '*' }));
      }
    });

    it('answers 200 with the current list after any write, and for a foreign, stale or malformed tag', async () => {
      const before = await get('/article').expect(200);
      const page = await get('/article?limit=2').expect(200);
      const stale = { list: before.headers.etag, page: page.headers.etag };
      const writes = [
        () => create('fourth', ['new']),
        () => harness().http().post('/article/update').send({ id: 1, title: 'renamed' }).expect(200),
        () => harness().http().post('/article/update').send({ id: 2, visible: false }).expect(200),
        () => harness().http().post('/article/delete').send({ id: 1 }).expect(200),
      ];
      for (const write of writes) {
        await write();
        const current = await get('/article').expect(200);
        const list = await get('/article', { 'If-None-Match': stale.list }).expect(200);
        expect(list.body).toEqual(current.body);
        expect(list.headers.etag).not.toBe(stale.list);
        const nextPage = await get('/article?limit=2', { 'If-None-Match': stale.page }).expect(200);
        expect(nextPage.headers.etag).not.toBe(stale.page);
        stale.list = list.headers.etag;
        stale.page = nextPage.headers.etag;
      }
      expect((await get('/article').expect(200)).body.data.map((article: { title: string }) => article.title)).toEqual([
        'third',
        'fourth',
      ]);
      const etag = (await get('/article').expect(200)).headers.etag ?? '';
      for (const header of ['"x"', 'W/"x"', etag.replace(/"/g, ''), `${etag}, garbage`, 'garbage', '']) {
        const answer = await get('/article', { 'If-None-Match': header });
        expect({ header, status: answer.status }).toEqual({ header, status: 200 });
        expect(answer.headers.etag).toMatch(WEAK_TAG);
      }
    });
  });
}
