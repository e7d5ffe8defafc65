import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

/** api.md, "Revisions": GET /article/:id/revisions and POST /article/restore. */
export function revisionsSuite(kind: StorageKind): void {
  describe('revisions and restores', () => {
    const harness = useHarness(kind);
    const http = () => harness().http();
    const post = (path: string, body: object) => http().post(path).send(body);

    it('lists the states each write replaced, newest first, in pages linked by before', async () => {
      const created = (await post('/article/create', { title: 'One', content: 'c', tag: [{ name: 't' }] })).body.data;
      const second = (await post('/article/update', { id: created.id, title: 'Two' }).expect(200)).body.data;
      await post('/article/update', { id: created.id, title: 'Three', visible: false }).expect(200);

      const all = await http().get(`/article/${created.id}/revisions`).expect(200);
      expect(all.headers.link).toBeUndefined();
      expect(all.body.data).toEqual([
        { revision: 2, replacedAt: expect.any(String), article: second },
        { revision: 1, replacedAt: second.updatedAt, article: created },
      ]);
      const page = await http().get(`/article/${created.id}/revisions?limit=1`).expect(200);
      expect(page.body.data.map((kept: { revision: number }) => kept.revision)).toEqual([2]);
      expect(page.headers.link).toBe(`</article/${created.id}/revisions?limit=1&before=2>; rel="next"`);
      const next = await http().get(`/article/${created.id}/revisions?limit=1&before=2`).expect(200);
      expect(next.body.data.map((kept: { revision: number }) => kept.revision)).toEqual([1]);
    });

    it('answers 404 for an id that never existed, 400 for bad parameters', async () => {
      const missing = await http().get('/article/99/revisions');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(failureBody('article 99 does not exist'));
      const created = (await post('/article/create', { content: 'c' })).body.data;
      await expect(http().get(`/article/${created.id}/revisions`)).resolves.toMatchObject({
        status: 200,
        body: { data: [] },
      });
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['before=0', 'before'],
        ['before=x', 'before'],
      ]) {
        const response = await http().get(`/article/${created.id}/revisions?${query}`);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        expect(response.body).toEqual(failureBody(new RegExp(`^${field}: `)));
      }
    });

    it('restores a revision with a new ETag, honours If-Match, and keeps what it replaced', async () => {
      const created = (await post('/article/create', { title: 'Original', content: 'c' })).body.data;
      const edited = await post('/article/update', { id: created.id, title: 'Edited', slug: 'edited' }).expect(200);

      const stale = await post('/article/restore', { id: created.id, revision: 1 }).set(
        'If-Match',
        `"${created.id}-1"`,
      );
      expect(stale.status).toBe(412);
      const restored = await post('/article/restore', { id: created.id, revision: 1 })
        .set('If-Match', edited.headers.etag as string)
        .expect(200);
      expect(restored.body.data).toEqual({ ...created, updatedAt: expect.any(String) });
      expect(restored.headers.etag).toBe(`"${created.id}-3"`);
      const revisions = await http().get(`/article/${created.id}/revisions`).expect(200);
      expect(revisions.body.data[0]).toMatchObject({ revision: 2, article: { title: 'Edited', slug: 'edited' } });
      // The slug it left still leads to it.
      await http().get('/article/slug/edited').expect(301);
    });

    it('brings a deleted article back with its id; refuses an unknown revision and bad bodies', async () => {
      const created = (await post('/article/create', { title: 'Gone', content: 'c' })).body.data;
      await post('/article/delete', { id: created.id }).expect(200);
      await expect(http().get(`/article/${created.id}`)).resolves.toMatchObject({ body: { data: null } });
      const revisions = await http().get(`/article/${created.id}/revisions`).expect(200);
      expect(revisions.body.data).toEqual([{ revision: 1, replacedAt: expect.any(String), article: created }]);

      const back = await post('/article/restore', { id: created.id, revision: 1 }).expect(200);
      expect(back.body.data).toMatchObject({ id: created.id, title: 'Gone', slug: 'gone' });
      await expect(
        http()
          .get('/article')
          .then((list) => list.body.data.map((a: { id: number }) => a.id)),
      ).resolves.toEqual([created.id]);

      const unknown = await post('/article/restore', { id: created.id, revision: 9 });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(failureBody(`revision 9 of article ${created.id} does not exist`));
      for (const body of [{ id: created.id }, { id: created.id, revision: 0 }, { id: created.id, revision: 1, x: 1 }]) {
        await expect(post('/article/restore', body)).resolves.toMatchObject({ status: 400 });
      }
      await expect(http().get('/article/restore')).resolves.toMatchObject({ status: 404 });
    });
  });
}
