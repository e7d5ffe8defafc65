import type { StorageKind } from '../../support/http-harness';
import { TestClock } from '../../support/test-clock';
import { ARTICLE_KEYS, failureBody, useHarness } from './harness-per-suite';
import { keyGuessingSuite } from './key-guessing.suite';
import { keysAndRolesMatrixSuite } from './keys-and-roles-matrix.suite';
import {
  ASKERS,
  type Asker,
  as,
  FUTURE,
  idsOf,
  newKey,
  OWN_AUTHOR,
  PAST,
  type Status,
  T0,
  tokenOf,
} from './keys-and-roles-support';

/* api.md, "Keys, roles and authors": who may create, seed and manage keys, written out as tables. */

/** Each create body (with a slug of its own) and what each asker gets: the new article's status, or a refusal. */
type Created = Status | 401 | 403;
// Columns of each row(): anonymous, contributor, author, editor, admin.
const CREATES: readonly [string, object, Record<Asker, Created>][] = [
  ['neither visible nor publishedAt', {}, row<Created>(401, 'draft', 'published', 'published', 'published')],
  ['visible false', { visible: false }, row<Created>(401, 'draft', 'draft', 'draft', 'draft')],
  ['publishedAt null', { publishedAt: null }, row<Created>(401, 'draft', 'draft', 'draft', 'draft')],
  ['visible true', { visible: true }, row<Created>(401, 403, 'published', 'published', 'published')],
  ['publishedAt in the future', { publishedAt: FUTURE }, row<Created>(401, 403, 'scheduled', 'scheduled', 'scheduled')],
  ['publishedAt in the past', { publishedAt: PAST }, row<Created>(401, 403, 'published', 'published', 'published')],
];

/** GET /seed/create. */
const SEED: Record<Asker, 200 | 401 | 403> = row<200 | 401 | 403>(401, 403, 403, 200, 200);

/** POST /key/create, GET /key and POST /key/revoke: admins only. */
const KEY_ROUTES: Record<Asker, 'allowed' | 401 | 403> = row<'allowed' | 401 | 403>(401, 403, 403, 403, 'allowed');

function row<T>(anonymous: T, contributor: T, author: T, editor: T, admin: T): Record<Asker, T> {
  return { anonymous, contributor, author, editor, admin };
}

const TOKEN = /^blog_[A-Za-z0-9_-]{43}$/;
const WITH_AUTHOR_LAST = [...ARTICLE_KEYS.filter((key) => key !== 'author'), 'author'];

export function keysAndRolesSuite(kind: StorageKind): void {
  keysAndRolesMatrixSuite(kind);
  keyGuessingSuite(kind);

  describe('keys and roles: creates, seeds and key routes', () => {
    const clock = new TestClock(T0, 1000);
    const harness = useHarness(kind, {}, { clock });
    beforeEach(() => clock.set(T0));

    describe.each(ASKERS)('as %s', (asker) => {
      it('POST /article/create makes what the table says; a refused create adds nothing', async () => {
        const admin = as(harness(), (await newKey(harness(), 'Root', 'admin')).token);
        const me = as(harness(), await tokenOf(harness(), asker));
        const published: number[] = [];
        for (const [index, [label, body, outcomes]] of CREATES.entries()) {
          const slug = `create-${index}`;
          const expected = outcomes[asker];
          const answer = await me.post('/article/create', { content: 'c', slug, ...body });
          expect({ label, status: answer.status }).toEqual({
            label,
            status: typeof expected === 'number' ? expected : 201,
          });
          if (typeof expected === 'number') {
            expect(answer.body).toEqual(failureBody(expected === 401 ? /Authorization: Bearer/ : /^forbidden: /));
            await expect(admin.get(`/article/slug/${slug}`)).resolves.toMatchObject({ status: 404 });
            continue;
          }
          expect({ label, status: answer.body.data.status }).toEqual({ label, status: expected });
          expect(answer.body.data.author).toEqual({ id: expect.any(String), name: OWN_AUTHOR, slug: 'ana' });
          await expect(admin.get(`/article/slug/${slug}`)).resolves.toMatchObject({ status: 200 });
          if (expected === 'published') published.push(answer.body.data.id);
        }
        await expect(admin.get('/article').then(idsOf)).resolves.toEqual(published);
      });

      it('GET /seed/create answers what the table says; a refused seed adds nothing', async () => {
        const admin = as(harness(), (await newKey(harness(), 'Root', 'admin')).token);
        const answer = await as(harness(), await tokenOf(harness(), asker)).get('/seed/create');
        expect(answer.status).toBe(SEED[asker]);
        const list = await admin.get('/article').expect(200);
        if (SEED[asker] === 200) {
          expect(answer.body.data.map((article: { title: string }) => article.title)).toEqual([
            'Article 1',
            'Article 2',
            'Article 3',
          ]);
          expect(list.body.data).toHaveLength(3);
        } else {
          expect(answer.body).toEqual(failureBody(SEED[asker] === 401 ? /Authorization: Bearer/ : /^forbidden: /));
          expect(list.body.data).toEqual([]);
          await expect(admin.get('/article/slug/article-1')).resolves.toMatchObject({ status: 404 });
        }
      });

      it('POST /key/create, GET /key and POST /key/revoke answer what the table says; refusals write nothing', async () => {
        const admin = as(harness(), (await newKey(harness(), 'Root', 'admin')).token);
        const victim = await newKey(harness(), 'Vic', 'author');
        const me = as(harness(), await tokenOf(harness(), asker));
        const keysNow = async () =>
          (await admin.get('/key').expect(200)).body.data.map((key: { id: string; revokedAt: string | null }) => ({
            id: key.id,
            revokedAt: key.revokedAt,
          }));
        const before = await keysNow();
        const expected = KEY_ROUTES[asker];
        const created = await me.post('/key/create', { author: 'Cy', role: 'contributor' });
        const listed = await me.get('/key');
        const revoked = await me.post('/key/revoke', { id: victim.id });
        const victimRead = await as(harness(), victim.token).get('/article');

        if (expected === 'allowed') {
          expect([created.status, listed.status, revoked.status, victimRead.status]).toEqual([201, 200, 200, 401]);
          expect(Object.keys(created.body.data)).toEqual([
            'id',
            'author',
            'role',
            'token',
            'prefix',
            'createdAt',
            'expiresAt',
          ]);
          const token = created.body.data.token as string;
          expect(created.body.data).toMatchObject({ author: { name: 'Cy', slug: 'cy' }, role: 'contributor' });
          expect(created.body.data).toMatchObject({ token: expect.stringMatching(TOKEN), prefix: token.slice(0, 12) });
          expect(listed.body.data.map((key: { id: string }) => key.id)).toContain(created.body.data.id);
          expect(listed.body.data.some((key: object) => 'token' in key)).toBe(false);
          expect(revoked.body.data).toMatchObject({ id: victim.id, revokedAt: expect.any(String) });
          await as(harness(), token).get('/article').expect(200);
          return;
        }
        for (const answer of [created, listed, revoked]) {
          expect(answer.status).toBe(expected);
          expect(answer.body).toEqual(failureBody(expected === 401 ? /Authorization: Bearer/ : /^forbidden: /));
        }
        expect(victimRead.status).toBe(200);
        await expect(keysNow()).resolves.toEqual(before);
      });
    });

    it('gives an article created with a key its author, last, in every answer; author= filters lists', async () => {
      const ana = as(harness(), (await newKey(harness(), OWN_AUTHOR, 'author')).token);
      const bo = as(harness(), (await newKey(harness(), 'Bo Ek', 'author')).token);
      const editor = as(harness(), (await newKey(harness(), 'Ed', 'editor')).token);
      const first = (await ana.post('/article/create', { title: 'First', content: 'c' }).expect(201)).body.data;
      const other = (await bo.post('/article/create', { content: 'c' }).expect(201)).body.data;
      const anaAuthor = { id: expect.any(String), name: OWN_AUTHOR, slug: 'ana' };
      expect(other.author).toEqual({ id: expect.any(String), name: 'Bo Ek', slug: 'bo-ek' });

      const updated = (await ana.post('/article/update', { id: first.id, title: 'Second' }).expect(200)).body.data;
      const answers = [
        first,
        updated,
        (await ana.get(`/article/${first.id}`).expect(200)).body.data,
        (await ana.get(`/article/slug/${first.slug}`).expect(200)).body.data,
        ...(await ana.get('/article').expect(200)).body.data,
        (await ana.get(`/article/${first.id}/revisions`).expect(200)).body.data[0].article,
        // Written by others, it stays Ana's.
        (await editor.post('/article/restore', { id: first.id, revision: 1 }).expect(200)).body.data,
        (await editor.post('/article/update', { id: first.id, featured: true }).expect(200)).body.data,
        (await ana.post('/article/delete', { id: first.id }).expect(200)).body.data,
      ];
      for (const article of answers) {
        expect(Object.keys(article)).toEqual(WITH_AUTHOR_LAST);
        expect(article.author).toEqual(article.id === other.id ? other.author : anaAuthor);
      }

      const third = (await ana.post('/article/create', { content: 'c' }).expect(201)).body.data;
      await expect(ana.get('/article?author=ana').then(idsOf)).resolves.toEqual([third.id]);
      await expect(ana.get('/article?author=bo-ek').then(idsOf)).resolves.toEqual([other.id]);
      await expect(ana.get('/article?author=nobody').then(idsOf)).resolves.toEqual([]);
      for (const malformed of ['Ana', 'bo_ek', 'bo--ek', '-ana']) {
        const answer = await ana.get(`/article?author=${malformed}`);
        expect({ malformed, status: answer.status }).toEqual({ malformed, status: 400 });
        expect(answer.body).toEqual(failureBody(/^author: /));
      }
    });
  });

  describe('keys and roles: without any key or API_TOKEN', () => {
    const harness = useHarness(kind);

    it('keeps the open rules: writes without a token, drafts readable; /key routes answer 401', async () => {
      const open = as(harness(), null);
      const draft = (await open.post('/article/create', { content: 'c', visible: false }).expect(201)).body.data;
      expect(draft).toMatchObject({ status: 'draft', author: null });
      await expect(open.get(`/article/${draft.id}`)).resolves.toMatchObject({ body: { data: { id: draft.id } } });
      await open.get(`/article/slug/${draft.slug}`).expect(200);
      await open.post('/article/update', { id: draft.id, title: 'T' }).expect(200);
      await open.get(`/article/${draft.id}/revisions`).expect(200);
      await open.post('/article/restore', { id: draft.id, revision: 1 }).expect(200);
      await open.post('/article/delete', { id: draft.id }).expect(200);
      await open.get('/seed/create').expect(200);
      for (const answer of [
        await open.get('/key'),
        await open.post('/key/create', { author: 'Ana', role: 'admin' }),
        await open.post('/key/revoke', { id: 'x' }),
      ]) {
        expect(answer.status).toBe(401);
        expect(answer.headers['www-authenticate']).toBe('Bearer');
      }
      // Still open: no key was made.
      await open.post('/article/create', { content: 'c' }).expect(201);
    });
  });

  describe('keys and roles: with API_TOKEN', () => {
    const harness = useHarness(kind, { apiToken: 'the-token' });

    it('is an admin: it makes keys, lists them, and its writes carry no author', async () => {
      const root = as(harness(), 'the-token');
      const created = await root.post('/key/create', { author: OWN_AUTHOR, role: 'author' }).expect(201);
      await expect(root.get('/key')).resolves.toMatchObject({
        status: 200,
        body: { data: [{ id: created.body.data.id }] },
      });
      const ana = as(harness(), created.body.data.token);
      const mine = await ana.post('/article/create', { content: 'c' }).expect(201);
      expect(mine.body.data.author).toMatchObject({ name: OWN_AUTHOR });
      await ana.post('/key/create', { author: 'Bo', role: 'admin' }).expect(403);
      const draft = await root.post('/article/create', { content: 'c', visible: false }).expect(201);
      expect(draft.body.data.author).toBeNull();
      await root.get('/seed/create').expect(200);
    });

    it('keeps what API_TOKEN did: writes need it, reads stay open, a draft only the token reads', async () => {
      const anonymous = as(harness(), null);
      const refused = await anonymous.post('/article/create', { content: 'c' });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      const draft = (await as(harness(), 'the-token').post('/article/create', { content: 'c', visible: false })).body
        .data;
      await expect(anonymous.get('/article')).resolves.toMatchObject({ status: 200, body: { data: [] } });
      await expect(anonymous.get(`/article/${draft.id}`)).resolves.toMatchObject({ status: 200, body: { data: null } });
      const byToken = await as(harness(), 'the-token').get(`/article/${draft.id}`).expect(200);
      expect(byToken.body.data).toMatchObject({ id: draft.id, status: 'draft' });
    });
  });
}
