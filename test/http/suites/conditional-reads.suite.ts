import type { StorageKind } from '../../support/http-harness';
import { useHarness } from './harness-per-suite';

/** What clients send beside a manual If-None-Match: `no-cache` from Node's fetch, `max-age=0` from Chromium's. */
const CACHE_CONTROLS = [undefined, 'no-cache', 'max-age=0', 'no-cache, no-store', 'no-store', 'max-age=0, no-cache'];

/** RFC 9110 §13.1.2 and §13.2.2, evaluated by the service whatever the request's Cache-Control. */
export function conditionalReadsSuite(kind: StorageKind): void {
  describe('If-None-Match on GET /article/:id', () => {
    const harness = useHarness(kind);
    const get = (path: string, headers: Record<string, string | undefined> = {}) => {
      const call = harness().http().get(path);
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) call.set(name, value);
      return call;
    };
    const createOne = async () => {
      const response = await harness().http().post('/article/create').send({ title: 'first', content: 'c' });
      return { article: response.body.data, etag: response.headers.etag as string };
    };
    const expectNotModified = (response: { status: number; text?: string; headers: Record<string, string> }) => {
      expect(response.status).toBe(304);
      expect(response.text ?? '').toBe('');
      expect(response.headers['content-length'] ?? '0').toBe('0');
    };

    it('answers 304 without a body, with the ETag, whatever Cache-Control the request carries', async () => {
      const { article, etag } = await createOne();
      for (const cacheControl of CACHE_CONTROLS) {
        const response = await get(`/article/${article.id}`, {
          'If-None-Match': etag,
          'Cache-Control': cacheControl,
          Pragma: cacheControl && 'no-cache',
        });
        expect({ cacheControl, status: response.status }).toEqual({ cacheControl, status: 304 });
        expectNotModified(response);
        expect(response.headers.etag).toBe(etag);
      }
    });

    it('compares weakly and reads a list; a stale, foreign or malformed tag gets 200 with the article', async () => {
      const { article, etag } = await createOne();
      for (const header of [`W/${etag}`, `"9999-1", ${etag}`, `"9999-1",W/${etag} , "x"`]) {
        expectNotModified(
          await get(`/article/${article.id}`, { 'If-None-Match': header, 'Cache-Control': 'no-cache' }),
        );
      }
      const updated = await harness().http().post('/article/update').send({ id: article.id, title: 'second' });
      for (const header of [etag, `W/${etag}`, '"9999-1"', 'garbage', etag.replace(/"/g, ''), `${etag}, garbage`, '']) {
        const response = await get(`/article/${article.id}`, { 'If-None-Match': header, 'Cache-Control': 'no-cache' });
        expect({ header, status: response.status }).toEqual({ header, status: 200 });
        expect(response.body.data).toEqual(updated.body.data);
        expect(response.headers.etag).toBe(updated.headers.etag);
      }
    });

    it('matches * to an existing article only: an id without one is 200 with null data', async () => {
      const { article, etag } = await createOne();
      for (const cacheControl of CACHE_CONTROLS) {
        const response = await get(`/article/${article.id}`, { 'If-None-Match': '*', 'Cache-Control': cacheControl });
        expectNotModified(response);
        expect(response.headers.etag).toBe(etag);
      }
      const missing = await get('/article/4242', { 'If-None-Match': '*' });
      expect(missing.status).toBe(200);
      expect(missing.body).toEqual({ statusCode: 10000, data: null, message: 'Success' });
    });

    it('leaves the routes without an ETag alone: If-None-Match and If-Modified-Since get 200 with the body', async () => {
      const { article } = await createOne();
      const conditions = [
        { 'If-None-Match': '*' },
        { 'If-None-Match': '"1-1"' },
        { 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() },
      ];
      for (const path of ['/tag', '/category', '/health']) {
        for (const condition of conditions) {
          const response = await get(path, condition);
          expect({ path, condition, status: response.status }).toEqual({ path, condition, status: 200 });
          expect(response.body.statusCode).toBe(10000);
        }
      }
      // No Last-Modified is sent, so If-Modified-Since cannot be evaluated and is ignored (RFC 9110 §13.1.3).
      const read = await get(`/article/${article.id}`, {
        'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString(),
      });
      expect(read.status).toBe(200);
      expect(read.headers['last-modified']).toBeUndefined();
    });
  });
}
