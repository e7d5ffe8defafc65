import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

export function updateArticleSuite(kind: StorageKind): void {
  describe('POST /article/update', () => {
    const harness = useHarness(kind);
    const post = (path: string, body: unknown) =>
      harness()
        .http()
        .post(path)
        .send(body as object);
    const createOne = async (body: object = {}) =>
      (await post('/article/create', { content: 'original', tag: [{ name: 'a' }], category: [{ name: 'c' }], ...body }))
        .body.data;

    it('applies the fields present, refreshes updatedAt and keeps the rest', async () => {
      const created = await createOne({ title: 'before' });
      const response = await post('/article/update', { id: created.id, title: 'after', visible: false });

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ statusCode: 10000, message: 'Success' });
      expect(response.body.data).toEqual({
        ...created,
        title: 'after',
        visible: false,
        publishedAt: null,
        status: 'draft',
        updatedAt: expect.any(String),
      });
      expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      const read = await harness().http().get(`/article/${created.id}`);
      expect(read.body.data).toEqual(response.body.data);
    });

    it('with only the id, refreshes updatedAt and nothing else', async () => {
      const created = await createOne();
      const response = await post('/article/update', { id: created.id });
      expect(response.status).toBe(200);
      expect({ ...response.body.data, updatedAt: created.updatedAt }).toEqual(created);
      expect(response.body.data.updatedAt).not.toBe(created.updatedAt);
    });

    it('replaces the links of a kind that is given and leaves the other kind', async () => {
      const created = await createOne();
      const response = await post('/article/update', { id: created.id, tag: [{ name: 'b' }, { name: 'a' }] });
      expect(response.body.data.tag.map((tag: { name: string }) => tag.name)).toEqual(['a', 'b']);
      expect(response.body.data.category).toEqual(created.category);

      const cleared = await post('/article/update', { id: created.id, category: [] });
      expect(cleared.body.data.category).toEqual([]);
      expect(cleared.body.data.tag).toEqual(response.body.data.tag);
    });

    it('answers 404 naming the id for an article that does not exist, and creates nothing', async () => {
      const response = await post('/article/update', { id: 777, title: 'x', tag: [{ name: 'ghost' }] });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failureBody('article 777 does not exist'));
      expect((await harness().http().get('/article')).body.data).toEqual([]);
      expect((await harness().http().get('/tag')).body.data).toEqual([]);
    });

    it('validates the body before looking the article up', async () => {
      const response = await post('/article/update', { id: 777, title: 5 });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody('title: must be a string'));
    });

    it.each([
      ['a string id', { id: '1' }, 'id: must be a number'],
      ['a zero id', { id: 0 }, 'id: must be at least 1'],
      ['a fractional id', { id: 1.5 }, 'id: must be an integer'],
      ['an id beyond 32 bits', { id: 2147483648 }, 'id: must be at most 2147483647'],
      ['no id', { title: 'x' }, 'id: is required'],
      ['a read-only field', { id: 1, updatedAt: 'now' }, 'updatedAt: is read-only'],
      ['an empty content', { id: 1, content: '' }, 'content: must not be empty'],
    ])('rejects %s with 400', async (_case, body, message) => {
      await createOne();
      const response = await post('/article/update', body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(message));
    });

    it('is all or nothing when a reference is unknown', async () => {
      const created = await createOne();
      const response = await post('/article/update', {
        id: created.id,
        title: 'lost',
        tag: [{ name: 'new' }, { id: 'nope' }],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody('tag: no tag with id "nope"'));
      expect((await harness().http().get(`/article/${created.id}`)).body.data).toEqual(created);
      expect((await harness().http().get('/tag')).body.data).toEqual(created.tag);
    });
  });
}
