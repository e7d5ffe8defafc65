import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

export function deleteArticleSuite(kind: StorageKind): void {
  describe('POST /article/delete', () => {
    const harness = useHarness(kind);
    const post = (path: string, body: unknown) =>
      harness()
        .http()
        .post(path)
        .send(body as object);
    const get = (path: string) => harness().http().get(path);
    const createOne = async (body: object = {}) =>
      (await post('/article/create', { content: 'c', tag: [{ name: 'ts' }], category: [{ name: 'dev' }], ...body }))
        .body.data;

    it('deletes the article and answers it as it was just before', async () => {
      const created = await createOne({ title: 'to go' });
      const updated = (await post('/article/update', { id: created.id, title: 'changed' })).body.data;

      const response = await post('/article/delete', { id: created.id });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ statusCode: 10000, data: updated, message: 'Success' });
      expect((await get(`/article/${created.id}`)).body).toEqual({ statusCode: 10000, data: null, message: 'Success' });
      expect((await get('/article')).body.data).toEqual([]);
    });

    it('removes its links and keeps its tags and categories, and the other articles', async () => {
      const doomed = await createOne();
      const kept = await createOne();

      await post('/article/delete', { id: doomed.id }).expect(200);

      expect((await get('/article')).body.data).toEqual([kept]);
      expect((await get('/article?tag=ts')).body.data).toEqual([kept]);
      expect((await get('/tag')).body.data).toEqual(doomed.tag);
      expect((await get('/category')).body.data).toEqual(doomed.category);

      await post('/article/delete', { id: kept.id }).expect(200);
      expect((await get('/tag')).body.data).toEqual(doomed.tag);
      expect((await get('/category')).body.data).toEqual(doomed.category);
      expect((await get('/article?category=dev')).body.data).toEqual([]);
    });

    it('answers 404 naming the id for an article that does not exist, and changes nothing', async () => {
      const kept = await createOne();
      const response = await post('/article/delete', { id: kept.id + 1 });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failureBody(`article ${kept.id + 1} does not exist`));
      expect((await get('/article')).body.data).toEqual([kept]);
    });

    it('a second delete of the same article is a 404, and its id is not reused', async () => {
      const created = await createOne();
      await post('/article/delete', { id: created.id }).expect(200);
      expect((await post('/article/delete', { id: created.id })).status).toBe(404);
      expect((await createOne()).id).toBeGreaterThan(created.id);
    });

    it.each([
      ['no id', {}, 'id: is required'],
      ['a string id', { id: '1' }, 'id: must be a number'],
      ['a zero id', { id: 0 }, 'id: must be at least 1'],
      ['an id beyond 32 bits', { id: 2147483648 }, 'id: must be at most 2147483647'],
      ['another field', { id: 1, title: 'x' }, 'title: is not a known field'],
      ['an array', [1], 'body: must be a JSON object'],
    ])('rejects %s with 400 and deletes nothing', async (_case, body, message) => {
      const kept = await createOne();
      const response = await post('/article/delete', body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(message));
      expect((await get('/article')).body.data).toEqual([kept]);
    });

    it('needs a JSON body', async () => {
      const response = await harness().http().post('/article/delete').set('Content-Type', 'text/plain').send('id=1');
      expect(response.status).toBe(415);
    });
  });
}
