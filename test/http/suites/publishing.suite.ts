import type { StorageKind } from '../../support/http-harness';
import { TestClock } from '../../support/test-clock';
import { failureBody, useHarness } from './harness-per-suite';

const T0 = '2026-08-01T09:00:00.000Z';
const plus = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

/**
 * On PostgreSQL a list's version is the server's snapshot, which other test files' writes move
 * too: a tag just read is then no longer current. A few tries find a quiet moment.
 */
const QUIET_TRIES = 20;

/**
 * api.md, "Publishing": drafts, schedules decided by the moment a read starts (the app's clock,
 * moved by the test: nothing sleeps), newest-first pages, featured, slugs and their redirects.
 */
export function publishingSuite(kind: StorageKind): void {
  describe('publishing', () => {
    const clock = new TestClock(T0);
    const harness = useHarness(kind, {}, { clock });
    const http = () => harness().http();
    const create = async (body: object) => {
      const response = await http().post('/article/create').send(body);
      expect(response.status).toBe(201);
      return response.body.data;
    };
    const listIds = async (path: string) => {
      const response = await http().get(path).expect(200);
      return (response.body.data as { id: number }[]).map((article) => article.id);
    };
    beforeEach(() => clock.set(T0));

    /** Reads `path` until If-None-Match with its ETag is a 304; answers that ETag and the ids read. */
    async function currentTag(path: string): Promise<{ etag: string; ids: number[] }> {
      for (let attempt = 1; ; attempt++) {
        const answer = await http().get(path).expect(200);
        const etag = answer.headers.etag as string;
        const again = await http().get(path).set('If-None-Match', etag);
        if (again.status === 304 || attempt === QUIET_TRIES) {
          expect({ path, status: again.status }).toEqual({ path, status: 304 });
          return { etag, ids: (answer.body.data as { id: number }[]).map((article) => article.id) };
        }
      }
    }

    it('shows a scheduled article in no list, page, search, cached list or 304 before its time, and in each from it on', async () => {
      const published = await create({ title: 'Now', content: 'needle one' });
      const scheduled = await create({ title: 'Soon', content: 'needle two', publishedAt: plus(1000) });
      expect(scheduled).toMatchObject({ status: 'scheduled', visible: false, publishedAt: plus(1000) });
      const lists = ['/article', '/article?limit=10', '/article?q=NEEDLE', '/article?order=newest&limit=5'];

      const before: Record<string, string> = {};
      clock.set(plus(999));
      for (const path of lists) {
        // Three reads of a whole list: the third is the answer the list cache kept.
        for (let read = 0; read < 3; read++) await expect(listIds(path)).resolves.toEqual([published.id]);
        const { etag, ids } = await currentTag(path);
        expect(ids).toEqual([published.id]);
        before[path] = etag;
      }
      const early = await http().get(`/article/${scheduled.id}`).expect(200);
      expect(early.body.data).toMatchObject({ status: 'scheduled', visible: false });

      clock.set(plus(1000));
      for (const path of lists) {
        const again = await http()
          .get(path)
          .set('If-None-Match', before[path] as string);
        expect({ path, status: again.status }).toEqual({ path, status: 200 });
        expect(again.headers.etag).not.toBe(before[path]);
        const ids = (again.body.data as { id: number }[]).map((article) => article.id);
        expect(ids).toEqual(path.includes('newest') ? [scheduled.id, published.id] : [published.id, scheduled.id]);
        expect(again.body.data.every((article: { status: string }) => article.status === 'published')).toBe(true);
      }
      const arrived = await http()
        .get(`/article/${scheduled.id}`)
        .set('If-None-Match', early.headers.etag as string);
      expect(arrived.status).toBe(200);
      expect(arrived.headers.etag).not.toBe(early.headers.etag);
      expect(arrived.body.data).toMatchObject({ status: 'published', visible: true });
    });

    it('creates a draft with visible false, publishes it with visible true, schedules and unpublishes with publishedAt', async () => {
      const draft = await create({ content: 'c', visible: false });
      expect(draft).toMatchObject({ status: 'draft', visible: false, publishedAt: null });
      clock.set(plus(5000));
      const update = (body: object) => http().post('/article/update').send(body).expect(200);
      const published = (await update({ id: draft.id, visible: true })).body.data;
      expect(published).toMatchObject({ status: 'published', visible: true, publishedAt: plus(5000) });
      clock.set(plus(9000));
      // Published already: it stays as it was published.
      await expect(update({ id: draft.id, visible: true })).resolves.toMatchObject({
        body: { data: { publishedAt: plus(5000) } },
      });
      const rescheduled = (await update({ id: draft.id, publishedAt: plus(60_000) })).body.data;
      expect(rescheduled).toMatchObject({ status: 'scheduled', visible: false, publishedAt: plus(60_000) });
      const pastDate = (await update({ id: draft.id, publishedAt: '2020-01-01T00:00:00+02:00' })).body.data;
      expect(pastDate).toMatchObject({ status: 'published', publishedAt: '2019-12-31T22:00:00.000Z' });
      await expect(update({ id: draft.id, publishedAt: null })).resolves.toMatchObject({
        body: { data: { status: 'draft', publishedAt: null } },
      });
    });

    it('refuses visible and publishedAt together, and a publishedAt that is not an ISO instant', async () => {
      const both = await http()
        .post('/article/create')
        .send({ content: 'c', visible: true, publishedAt: plus(0) });
      expect(both.status).toBe(400);
      expect(both.body).toEqual(failureBody(/^visible, publishedAt: /));
      for (const publishedAt of ['tomorrow', '2026-13-01T00:00:00Z', '2026-08-01T09:00:00', 5]) {
        const response = await http().post('/article/create').send({ content: 'c', publishedAt });
        expect({ publishedAt, status: response.status }).toEqual({ publishedAt, status: 400 });
        expect(response.body).toEqual(failureBody(/^publishedAt: /));
      }
      await expect(listIds('/article')).resolves.toEqual([]);
    });

    it('pages newest first with an opaque cursor in the Link, and filters by featured', async () => {
      const ids: number[] = [];
      for (const [offset, featured] of [
        [-3000, false],
        [-1000, true],
        [-2000, false],
        [-1000, false],
        [-4000, true],
      ] as const) {
        ids.push((await create({ content: 'c', featured, publishedAt: plus(offset) })).id);
      }
      const newest = [ids[3], ids[1], ids[2], ids[0], ids[4]];
      const seen: number[] = [];
      let next: string | undefined = '/article?order=newest&limit=2';
      while (next) {
        const page = await http().get(next).expect(200);
        seen.push(...page.body.data.map((article: { id: number }) => article.id));
        const link = page.headers.link as string | undefined;
        expect(
          link === undefined || /^<\/article\?limit=2&order=newest&cursor=[A-Za-z0-9_-]+>; rel="next"$/.test(link),
        ).toBe(true);
        next = link?.slice(1, link.indexOf('>'));
      }
      expect(seen).toEqual(newest);
      await expect(listIds('/article?order=newest')).resolves.toEqual(newest);
      await expect(listIds('/article?featured=true')).resolves.toEqual([ids[1], ids[4]]);
      await expect(listIds('/article?featured=false&order=newest')).resolves.toEqual([ids[3], ids[2], ids[0]]);
      const featuredPage = await http().get('/article?featured=true&limit=1').expect(200);
      expect(featuredPage.headers.link).toBe(`</article?limit=1&after=${ids[1]}&featured=true>; rel="next"`);
    });

    it.each([
      ['/article?order=oldest', /^order: /],
      ['/article?order=newest&after=3', /^after: /],
      ['/article?cursor=MTIzLjQ', /^cursor: /],
      ['/article?order=newest&cursor=not-a-cursor', /^cursor: /],
      ['/article?featured=yes', /^featured: /],
      ['/article?featured=true&featured=false', /^featured: /],
    ])('answers 400 naming the parameter for %s', async (path, message) => {
      const response = await http().get(path);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(message));
    });

    it('makes slugs from titles, refuses a taken one with 409, and reads an article by slug', async () => {
      const first = await create({ title: 'TypeScript 入门', content: 'c' });
      const second = await create({ title: 'TypeScript 入门', content: 'c', visible: false });
      expect([first.slug, second.slug]).toEqual(['typescript-ru-men', 'typescript-ru-men-2']);
      const taken = await http().post('/article/create').send({ content: 'c', slug: 'typescript-ru-men' });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual(failureBody('slug: "typescript-ru-men" is taken by another article; choose another'));
      const bad = await http().post('/article/create').send({ content: 'c', slug: 'Not A Slug' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(failureBody(/^slug: /));

      const read = await http().get('/article/slug/typescript-ru-men-2').expect(200);
      expect(read.body.data).toEqual(second);
      expect(read.headers.etag).toBe(`"${second.id}-1"`);
      await http()
        .get('/article/slug/typescript-ru-men-2')
        .set('If-None-Match', read.headers.etag as string)
        .expect(304);
      const unknown = await http().get('/article/slug/nobody-has-it');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(failureBody('slug: no article has the slug "nobody-has-it"'));
      const malformed = await http().get('/article/slug/Bad_Slug');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual(failureBody(/^slug: /));
    });

    it('answers an earlier slug with 301 to the current one, and a taken slug on update with 409', async () => {
      const article = await create({ title: 'Old name', content: 'c' });
      const other = await create({ title: 'Other', content: 'c' });
      const renamed = await http().post('/article/update').send({ id: article.id, slug: 'new-name' }).expect(200);
      expect(renamed.body.data).toMatchObject({ slug: 'new-name', title: 'Old name' });

      const moved = await http().get('/article/slug/old-name');
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toBe('/article/slug/new-name');
      expect(moved.body).toEqual({ statusCode: 10000, data: { id: article.id, slug: 'new-name' }, message: 'Success' });

      const clash = await http().post('/article/update').send({ id: other.id, slug: 'new-name', title: 'changed' });
      expect(clash.status).toBe(409);
      await expect(http().get(`/article/${other.id}`)).resolves.toMatchObject({ body: { data: other } });
    });
  });
}
