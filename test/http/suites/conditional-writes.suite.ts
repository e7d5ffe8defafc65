import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

const CONCURRENT = 20;

export function conditionalWritesSuite(kind: StorageKind): void {
  describe('ETag and If-Match', () => {
    const harness = useHarness(kind);
    const get = (path: string) => harness().http().get(path);
    const post = (path: string, body: object, ifMatch?: string) => {
      const call = harness().http().post(path);
      return (ifMatch === undefined ? call : call.set('If-Match', ifMatch)).send(body);
    };
    const createOne = async () => {
      const response = await post('/article/create', { title: 'first', content: 'c' });
      return { article: response.body.data, etag: response.headers.etag as string };
    };
    const changed = (id: number) => failureBody(`article ${id} has changed since it was read; read it again`);

    it('GET /article/:id sends a strong ETag that changes with every update; create and update send it too', async () => {
      const { article, etag } = await createOne();
      const read = await get(`/article/${article.id}`);
      expect(read.headers.etag).toBe(etag);
      expect(etag).toMatch(/^"[^"]+"$/);

      const updated = await post('/article/update', { id: article.id, title: 'second' });
      expect(updated.headers.etag).not.toBe(etag);
      expect((await get(`/article/${article.id}`)).headers.etag).toBe(updated.headers.etag);
      // An update that changes no field is still a change: updatedAt moves, and so does the tag.
      const touched = await post('/article/update', { id: article.id });
      expect(touched.headers.etag).not.toBe(updated.headers.etag);
    });

    it('GET /article/:id answers 304 without a body to an If-None-Match naming the current tag', async () => {
      const { article, etag } = await createOne();
      const notModified = await get(`/article/${article.id}`).set('If-None-Match', etag);
      expect(notModified.status).toBe(304);
      expect(notModified.text ?? '').toBe('');

      await post('/article/update', { id: article.id, title: 'second' }).expect(200);
      const modified = await get(`/article/${article.id}`).set('If-None-Match', etag);
      expect(modified.status).toBe(200);
      expect(modified.body.data.title).toBe('second');
    });

    it("sends no ETag when no article has the id; the list's weak one names no article for If-Match", async () => {
      expect((await get('/article/99')).headers.etag).toBeUndefined();
      const { article } = await createOne();
      const listTag = (await get('/article')).headers.etag ?? '';
      expect(listTag).toMatch(/^W\//);
      const refused = await post('/article/update', { id: article.id, title: 'second' }, listTag);
      expect(refused.status).toBe(412);
      expect(refused.body).toEqual(changed(article.id));
    });

    it('updates when If-Match names the current tag, and answers the new one', async () => {
      const { article, etag } = await createOne();
      const response = await post('/article/update', { id: article.id, title: 'second' }, etag);
      expect(response.status).toBe(200);
      expect(response.body.data.title).toBe('second');
      expect(response.headers.etag).toBe((await get(`/article/${article.id}`)).headers.etag);
    });

    it('answers 412 and writes nothing when If-Match is stale', async () => {
      const { article, etag } = await createOne();
      const current = await post('/article/update', { id: article.id, title: 'second' }, etag);

      const stale = await post('/article/update', { id: article.id, title: 'lost', tag: [{ name: 'new' }] }, etag);
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual(changed(article.id));
      const read = await get(`/article/${article.id}`);
      expect(read.body.data).toEqual(current.body.data);
      expect(read.headers.etag).toBe(current.headers.etag);
      expect((await get('/tag')).body.data).toEqual([]);
    });

    it.each([
      ['a weak tag', (etag: string) => `W/${etag}`],
      ['the tag of another article', () => '"999999-1"'],
      ['a header that is not a list of tags', () => 'garbage'],
      ['an empty header', () => ''],
      ['an unquoted tag', (etag: string) => etag.replace(/"/g, '')],
    ])('never matches %s', async (_case, ifMatch) => {
      const { article, etag } = await createOne();
      const response = await post('/article/update', { id: article.id, title: 'x' }, ifMatch(etag));
      expect(response.status).toBe(412);
      expect(response.body).toEqual(changed(article.id));
      expect((await get(`/article/${article.id}`)).body.data).toEqual(article);
    });

    it('matches * whatever the version, and any tag of a list', async () => {
      const { article, etag } = await createOne();
      await post('/article/update', { id: article.id, title: 'second' }).expect(200);
      expect((await post('/article/update', { id: article.id }, '*')).status).toBe(200);
      const current = (await get(`/article/${article.id}`)).headers.etag as string;

      const listed = await post(
        '/article/update',
        { id: article.id, title: 'third' },
        `${etag}, W/${current}, ${current}`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body.data.title).toBe('third');
      const weakOnly = await post('/article/update', { id: article.id }, `${etag}, W/${listed.headers.etag}`);
      expect(weakOnly.status).toBe(412);
    });

    it('a missing article stays a 404 with If-Match', async () => {
      for (const path of ['/article/update', '/article/delete']) {
        const response = await post(path, { id: 4242 }, '"4242-1"');
        expect(response.status).toBe(404);
        expect(response.body).toEqual(failureBody('article 4242 does not exist'));
      }
    });

    it('deletes only while If-Match matches', async () => {
      const { article, etag } = await createOne();
      const updated = await post('/article/update', { id: article.id, title: 'second' });

      const stale = await post('/article/delete', { id: article.id }, etag);
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual(changed(article.id));
      expect((await get(`/article/${article.id}`)).body.data).toEqual(updated.body.data);

      const current = await post('/article/delete', { id: article.id }, updated.headers.etag as string);
      expect(current.status).toBe(200);
      expect(current.body.data).toEqual(updated.body.data);
      expect((await get(`/article/${article.id}`)).body.data).toBeNull();
    });

    it(`of ${CONCURRENT} concurrent updates with the same If-Match, exactly one succeeds`, async () => {
      const { article, etag } = await createOne();
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, n) => post('/article/update', { id: article.id, title: `t${n}` }, etag)),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, ...Array(CONCURRENT - 1).fill(412)]);
      const winner = responses.find((response) => response.status === 200);
      const read = await get(`/article/${article.id}`);
      expect(read.body.data).toEqual(winner?.body.data);
      expect(read.headers.etag).toBe(winner?.headers.etag);
    });

    it(`of ${CONCURRENT} concurrent deletes with the same If-Match, exactly one succeeds`, async () => {
      const { article, etag } = await createOne();
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, () => post('/article/delete', { id: article.id }, etag)),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      // A loser finds the article changed (412) or, once the winner committed, gone (404).
      expect(statuses.filter((status) => status === 412 || status === 404)).toHaveLength(CONCURRENT - 1);
      expect((await get(`/article/${article.id}`)).body.data).toBeNull();
    });

    it(`of ${CONCURRENT} concurrent deletes racing an update with the same If-Match, exactly one write succeeds`, async () => {
      const { article, etag } = await createOne();
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, n) =>
          n % 2 === 0
            ? post('/article/update', { id: article.id, title: `t${n}` }, etag)
            : post('/article/delete', { id: article.id }, etag),
        ),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      expect(responses.every((response) => [200, 404, 412].includes(response.status))).toBe(true);
    });
  });
}
