import { closeContainer } from '../../../src/composition/container';
import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

export function readRoutesSuite(kind: StorageKind): void {
  describe('reads and seed', () => {
    const harness = useHarness(kind);
    const get = (path: string) => harness().http().get(path);
    const create = async (body: object) => (await harness().http().post('/article/create').send(body)).body.data;

    it('GET /article lists only visible articles by id, with tags and categories, ignoring the query', async () => {
      const first = await create({ content: '1', tag: [{ name: 't' }] });
      await create({ content: 'hidden', visible: false });
      const third = await create({ content: '3', category: [{ name: 'c' }] });

      const response = await get('/article?includeInvisible=true&page=2');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ statusCode: 10000, data: [first, third], message: 'Success' });
    });

    it('GET /article/:id reads any visibility; a missing id is 200 with null data', async () => {
      const hidden = await create({ content: 'hidden', visible: false });
      expect((await get(`/article/${hidden.id}`)).body).toEqual({
        statusCode: 10000,
        data: hidden,
        message: 'Success',
      });

      const missing = await get('/article/2147483647');
      expect(missing.status).toBe(200);
      expect(missing.body).toEqual({ statusCode: 10000, data: null, message: 'Success' });
    });

    it.each(['abc', '0', '01', '-1', '1.5', '2147483648', '99999999999999999999', '1e3', '%20'])(
      'GET /article/%s is a 400 naming the id',
      async (id) => {
        const response = await get(`/article/${id}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(failureBody(/^id: ".*" is not an article id/));
      },
    );

    it('quotes at most 32 characters of a bad path id', async () => {
      const response = await get(`/article/${'9'.repeat(5000)}`);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(
        `id: "${'9'.repeat(32)}…" is not an article id (a positive integer up to 2147483647)`,
      );
    });

    it('GET /seed/create adds Article 1..3 and answers the visible list; each call adds three', async () => {
      const first = await get('/seed/create');
      expect(first.status).toBe(200);
      expect(first.body.statusCode).toBe(10000);
      expect(
        first.body.data.map((article: { title: string; content: string }) => [article.title, article.content]),
      ).toEqual([
        ['Article 1', 'Content 1'],
        ['Article 2', 'Content 2'],
        ['Article 3', 'Content 3'],
      ]);
      const second = await get('/seed/create');
      expect(second.body.data).toHaveLength(6);
      expect(second.body).toEqual((await get('/article')).body);
    });

    if (kind !== 'memory') {
      it('answers 503 in the wrapper when the storage is gone', async () => {
        await closeContainer(harness().container);
        for (const path of ['/article', '/article/1', '/tag']) {
          const response = await get(path);
          expect(response.status).toBe(503);
          expect(response.body).toEqual(failureBody('storage is unavailable, try again later'));
        }
        const write = await harness().http().post('/article/create').send({ content: 'c' });
        expect(write.status).toBe(503);
      });
    }

    it('GET /tag and GET /category list every term by name in code-point order', async () => {
      await create({ content: 'c', tag: [{ name: 'b' }, { name: 'B' }, { name: '😀' }], category: [{ name: 'x' }] });
      await create({ content: 'c', tag: [{ name: 'a', description: 'first' }] });

      const tags = await get('/tag');
      expect(tags.status).toBe(200);
      expect(tags.body.data.map((tag: { name: string }) => tag.name)).toEqual(['B', 'a', 'b', '😀']);
      expect(tags.body.data[1]).toEqual({ id: expect.any(String), name: 'a', description: 'first' });
      const categories = await get('/category');
      expect(categories.body).toEqual({
        statusCode: 10000,
        data: [{ id: expect.any(String), name: 'x', description: null }],
        message: 'Success',
      });
    });
  });
}
