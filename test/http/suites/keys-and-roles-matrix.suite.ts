import type { StorageKind } from '../../support/http-harness';
import { TestClock } from '../../support/test-clock';
import { failureBody, useHarness } from './harness-per-suite';
import {
  ASKERS,
  type Asker,
  as,
  FUTURE,
  idsOf,
  type MatrixArticle,
  NEVER_AN_ARTICLE,
  newKey,
  OWN_AUTHOR,
  openMatrix,
  type Row,
  refusalMessage,
  snapshotOf,
  T0,
  tokenOf,
} from './keys-and-roles-support';

/*
 * api.md, "Keys, roles and authors", as tables. Columns, in this order: own draft, own scheduled,
 * own published, other's draft, other's scheduled, other's published ("own": the asker's author
 * wrote it). Rows: who asks. Written out from the contract, not computed by the code under test.
 */

/** GET /article/:id, /article/slug/:slug and /article/:id/revisions: hidden is data null, 404, 404. */
const READS: Record<Asker, Row<'shown' | 'hidden'>> = {
  anonymous: /*   */ ['hidden', 'hidden', 'shown', 'hidden', 'hidden', 'shown'],
  contributor: /* */ ['shown', 'hidden', 'shown', 'hidden', 'hidden', 'shown'],
  author: /*      */ ['shown', 'shown', 'shown', 'hidden', 'hidden', 'shown'],
  editor: /*      */ ['shown', 'shown', 'shown', 'shown', 'shown', 'shown'],
  admin: /*       */ ['shown', 'shown', 'shown', 'shown', 'shown', 'shown'],
};

type WriteRoute = '/article/update' | '/article/delete' | '/article/restore';

/** The status of each write: 200 done; 401 no key; 403 readable but not the role's; 404 not readable. */
const WRITES: Record<WriteRoute, Record<Asker, Row<200 | 401 | 403 | 404>>> = {
  '/article/update': {
    anonymous: /*   */ [401, 401, 401, 401, 401, 401],
    contributor: /* */ [200, 404, 403, 404, 404, 403],
    author: /*      */ [200, 200, 200, 404, 404, 403],
    editor: /*      */ [200, 200, 200, 200, 200, 200],
    admin: /*       */ [200, 200, 200, 200, 200, 200],
  },
  '/article/delete': {
    anonymous: /*   */ [401, 401, 401, 401, 401, 401],
    contributor: /* */ [200, 404, 403, 404, 404, 403],
    author: /*      */ [200, 200, 200, 404, 404, 403],
    editor: /*      */ [200, 200, 200, 200, 200, 200],
    admin: /*       */ [200, 200, 200, 200, 200, 200],
  },
  '/article/restore': {
    anonymous: /*   */ [401, 401, 401, 401, 401, 401],
    contributor: /* */ [403, 404, 403, 404, 404, 403],
    author: /*      */ [403, 403, 403, 404, 404, 403],
    editor: /*      */ [200, 200, 200, 200, 200, 200],
    admin: /*       */ [200, 200, 200, 200, 200, 200],
  },
};

const WRITE_ROUTES = Object.keys(WRITES) as WriteRoute[];

const bodyOf = (route: WriteRoute, id: number): object =>
  route === '/article/update' ? { id, title: 'edited' } : route === '/article/delete' ? { id } : { id, revision: 1 };

const labelOf = (article: MatrixArticle) => `${article.owner} ${article.status} (${article.slug})`;

/** Every article route × every role × own/other × draft/scheduled/published; refused requests write nothing. */
export function keysAndRolesMatrixSuite(kind: StorageKind): void {
  describe('keys and roles: every article route, role, owner and status', () => {
    const clock = new TestClock(T0, 1000);
    const harness = useHarness(kind, {}, { clock });
    beforeEach(() => clock.set(T0));

    describe.each(ASKERS)('as %s', (asker) => {
      it('reads by id, by slug and revisions exactly the articles of the table; lists only published ones', async () => {
        const { articles } = await openMatrix(harness());
        const me = as(harness(), await tokenOf(harness(), asker));
        for (const [index, article] of articles.entries()) {
          const byId = await me.get(`/article/${article.id}`);
          const bySlug = await me.get(`/article/slug/${article.slug}`);
          const revisions = await me.get(`/article/${article.id}/revisions`);
          const seen = {
            article: labelOf(article),
            byId: [byId.status, byId.body.data?.id ?? null],
            bySlug: [bySlug.status, bySlug.body.data?.id ?? null],
            revisions: [revisions.status, revisions.body.data?.length ?? null],
          };
          const shown = { byId: [200, article.id], bySlug: [200, article.id], revisions: [200, 1] };
          const hidden = { byId: [200, null], bySlug: [404, null], revisions: [404, null] };
          expect(seen).toEqual({ article: labelOf(article), ...(READS[asker][index] === 'shown' ? shown : hidden) });
          if (READS[asker][index] === 'hidden') {
            // As if missing: the very answers of an article or slug that does not exist.
            expect(byId.headers.etag).toBeUndefined();
            expect(bySlug.body).toEqual(failureBody(`slug: no article has the slug "${article.slug}"`));
            expect(revisions.body).toEqual(failureBody(`article ${article.id} does not exist`));
          }
        }
        const published = articles.filter(({ status }) => status === 'published').map(({ id }) => id);
        for (const path of ['/article', '/article?limit=10', '/article?order=newest', '/article?q=c']) {
          const list = await me.get(path);
          expect({ path, status: list.status, ids: idsOf(list).sort((a, b) => a - b) }).toEqual({
            path,
            status: 200,
            ids: published,
          });
        }
        const own = await me.get(`/article?author=${OWN_AUTHOR.toLowerCase()}`).expect(200);
        expect(idsOf(own)).toEqual([articles[2].id]);
      });

      it.each(WRITE_ROUTES)('POST %s answers what the table says; a refused one writes nothing', async (route) => {
        const { admin, articles } = await openMatrix(harness());
        const me = as(harness(), await tokenOf(harness(), asker));
        const missingAnswer = await me.post(route, bodyOf(route, NEVER_AN_ARTICLE));
        expect(missingAnswer.status).toBe(asker === 'anonymous' ? 401 : 404);
        const missing = missingAnswer.body.message as string;
        for (const [index, article] of articles.entries()) {
          const expected = WRITES[route][asker][index] as 200 | 401 | 403 | 404;
          const before = await snapshotOf(harness(), admin, article.id);
          const answer = await me.post(route, bodyOf(route, article.id));
          expect({ article: labelOf(article), status: answer.status }).toEqual({
            article: labelOf(article),
            status: expected,
          });
          const after = await snapshotOf(harness(), admin, article.id);
          if (expected === 404) {
            // As if missing: the answer the same request gets for an id that never existed.
            expect(answer.body).toEqual(failureBody(missing.replace(String(NEVER_AN_ARTICLE), String(article.id))));
          } else if (expected !== 200) expect(answer.body).toEqual(failureBody(refusalMessage(expected)));
          if (expected !== 200) {
            if (expected === 401) expect(answer.headers['www-authenticate']).toBe('Bearer');
            expect({ article: labelOf(article), after }).toEqual({ article: labelOf(article), after: before });
            continue;
          }
          expect(after.revisions).toBe((before.revisions ?? 0) + 1);
          if (route === '/article/update')
            expect(after.article).toMatchObject({ title: 'edited', status: article.status });
          if (route === '/article/delete') expect(after.article).toBeNull();
          if (route === '/article/restore') expect(after.article).toMatchObject({ title: article.firstTitle });
        }
      });
    });

    it('lets a contributor keep its draft a draft only, and an author publish, schedule and unpublish its own', async () => {
      const { admin, articles } = await openMatrix(harness());
      const [ownDraft, , ownPublished] = articles;
      const contributor = as(harness(), await tokenOf(harness(), 'contributor'));
      for (const change of [{ visible: true }, { publishedAt: FUTURE }, { publishedAt: '2020-01-01T00:00:00.000Z' }]) {
        const before = await snapshotOf(harness(), admin, ownDraft.id);
        const refused = await contributor.post('/article/update', { id: ownDraft.id, ...change });
        expect({ change, status: refused.status }).toEqual({ change, status: 403 });
        expect(refused.body).toEqual(failureBody(/^forbidden: /));
        await expect(snapshotOf(harness(), admin, ownDraft.id)).resolves.toEqual(before);
      }
      for (const change of [{ visible: false }, { publishedAt: null }]) {
        const kept = await contributor.post('/article/update', { id: ownDraft.id, ...change });
        expect({ change, status: kept.status, now: kept.body.data?.status }).toEqual({
          change,
          status: 200,
          now: 'draft',
        });
      }
      const author = as(harness(), await tokenOf(harness(), 'author'));
      for (const [change, status] of [
        [{ visible: false }, 'draft'],
        [{ publishedAt: FUTURE }, 'scheduled'],
        [{ visible: true }, 'published'],
      ] as const) {
        const answer = await author.post('/article/update', { id: ownPublished.id, ...change });
        expect({ change, status: answer.status, now: answer.body.data?.status }).toEqual({
          change,
          status: 200,
          now: status,
        });
      }
    });

    it('hides a draft through its earlier slug and, once deleted, its revisions, from those who may not edit it', async () => {
      const { articles } = await openMatrix(harness());
      const [ownDraft] = articles;
      const ana = as(harness(), await tokenOf(harness(), 'author'));
      await ana.post('/article/update', { id: ownDraft.id, slug: 'renamed-draft' }).expect(200);
      const strangers = [as(harness(), null), as(harness(), (await newKey(harness(), 'Bo', 'author')).token)];
      for (const stranger of strangers) {
        const earlier = await stranger.get(`/article/slug/${ownDraft.slug}`);
        expect(earlier.status).toBe(404);
        expect(earlier.headers.location).toBeUndefined();
        await expect(stranger.get('/article/slug/renamed-draft')).resolves.toMatchObject({ status: 404 });
      }
      const redirect = await ana.get(`/article/slug/${ownDraft.slug}`).expect(301);
      expect(redirect.headers.location).toBe('/article/slug/renamed-draft');

      await ana.post('/article/delete', { id: ownDraft.id }).expect(200);
      await expect(ana.get(`/article/${ownDraft.id}/revisions`)).resolves.toMatchObject({ status: 200 });
      for (const stranger of strangers) {
        const revisions = await stranger.get(`/article/${ownDraft.id}/revisions`);
        expect(revisions.status).toBe(404);
        expect(revisions.body).toEqual(failureBody(`article ${ownDraft.id} does not exist`));
      }
    });

    it('shows a scheduled article to everyone once the clock reaches it, and then treats it as published', async () => {
      const { admin, articles } = await openMatrix(harness());
      const [, ownScheduled, ownPublished, , otherScheduled, otherPublished] = articles;
      const anonymous = as(harness(), null);
      const contributor = as(harness(), await tokenOf(harness(), 'contributor'));
      await expect(anonymous.get(`/article/${otherScheduled.id}`)).resolves.toMatchObject({ body: { data: null } });

      clock.set(new Date(Date.parse(FUTURE) + 1000));
      for (const article of [ownScheduled, otherScheduled]) {
        const byId = await anonymous.get(`/article/${article.id}`).expect(200);
        expect(byId.body.data).toMatchObject({ id: article.id, status: 'published' });
        await anonymous.get(`/article/slug/${article.slug}`).expect(200);
        await anonymous.get(`/article/${article.id}/revisions`).expect(200);
        // Published now: readable by the contributor, not its to change (403, no longer 404).
        const before = await snapshotOf(harness(), admin, article.id);
        const refused = await contributor.post('/article/update', { id: article.id, title: 'x' });
        expect(refused.status).toBe(403);
        await expect(snapshotOf(harness(), admin, article.id)).resolves.toEqual(before);
      }
      const list = await anonymous.get('/article').expect(200);
      expect(idsOf(list)).toEqual(
        [ownScheduled, ownPublished, otherScheduled, otherPublished].map((article) => article.id),
      );
    });
  });
}
