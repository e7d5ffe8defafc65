import { randomBytes } from 'node:crypto';
import type { KeyRepository } from '../../../src/application';
import { ADMIN_WITHOUT_AUTHOR, AuthenticateRequest, RevokeKey } from '../../../src/application';
import { TOKENS } from '../../../src/composition/tokens';
import type { StorageKind } from '../../support/http-harness';
import { TestClock } from '../../support/test-clock';
import { failureBody, useHarness } from './harness-per-suite';
import { as, idsOf, newKey, T0 } from './keys-and-roles-support';

const DAY_MS = 86_400_000;
/** Failed authentications an address may have in a minute (api.md); the next request is a 429. */
const FAILED_PER_MINUTE = 20;

/**
 * api.md, "Keys, roles and authors": every token that is not a valid key is the same 401, a
 * client address guessing tokens is slowed down, and a revoked or expired key stops working. The
 * clock is the app's, moved by the test (expiry), and never runs by itself (step 0).
 */
export function keyGuessingSuite(kind: StorageKind): void {
  describe('keys: guessed, revoked and expired tokens', () => {
    const clock = new TestClock(T0);
    const harness = useHarness(kind, {}, { clock });
    beforeEach(() => clock.set(T0));
    const authentication = () => harness().container.get(AuthenticateRequest);
    const revokeElsewhere = (id: string) =>
      new RevokeKey(harness().container.get<KeyRepository>(TOKENS.KeyRepository), clock, null).execute(
        { id },
        ADMIN_WITHOUT_AUTHOR,
      );

    it('answers the same 401 with WWW-Authenticate: Bearer to every token that is not a valid key, read or write', async () => {
      const valid = await newKey(harness(), 'Ana', 'admin');
      const revoked = await newKey(harness(), 'Ana', 'author');
      await harness().container.get(RevokeKey).execute({ id: revoked.id }, ADMIN_WITHOUT_AUTHOR);
      const expiring = await newKey(harness(), 'Ana', 'author', 1);
      await as(harness(), expiring.token).get('/article').expect(200);
      clock.advance(DAY_MS + 1);
      const tokens = {
        unknown: `blog_${randomBytes(12).toString('hex')}`,
        truncated: valid.token.slice(0, -1),
        'another prefix': `ghp_${valid.token.slice('blog_'.length)}`,
        revoked: revoked.token,
        expired: expiring.token,
        'another deployment': `blog_${randomBytes(32).toString('base64url')}`,
      };
      const messages = new Set<string>();
      for (const [what, token] of Object.entries(tokens)) {
        for (const answer of [
          await as(harness(), token).get('/article'),
          await as(harness(), token).post('/article/create', { content: 'c', slug: 'guessed' }),
        ]) {
          expect({ what, status: answer.status, scheme: answer.headers['www-authenticate'] }).toEqual({
            what,
            status: 401,
            scheme: 'Bearer',
          });
          expect(answer.body).toEqual(failureBody(/./));
          messages.add(answer.body.message);
        }
      }
      expect(messages.size).toBe(1);
      const admin = as(harness(), valid.token);
      await expect(admin.get('/article/slug/guessed')).resolves.toMatchObject({ status: 404 });
      await expect(admin.get('/article').then(idsOf)).resolves.toEqual([]);
    });

    it('answers 429 with Retry-After once an address had 20 failed authentications, even to a valid key', async () => {
      const valid = await newKey(harness(), 'Ana', 'author');
      for (let attempt = 1; attempt <= FAILED_PER_MINUTE; attempt++) {
        const answer = await as(harness(), `blog_${randomBytes(32).toString('base64url')}`).get('/article');
        expect({ attempt, status: answer.status }).toEqual({ attempt, status: 401 });
      }
      const limited = await as(harness(), valid.token).get('/article');
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual(failureBody(/^Too many failed authentications/));
      expect(limited.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    });

    it('refuses a cached key revoked elsewhere once the cache is refreshed', async () => {
      const key = await newKey(harness(), 'Ana', 'author');
      const me = as(harness(), key.token);
      await me.get('/article').expect(200);
      // The service refreshes every 400 ms: the key is now in a fresh cache.
      await authentication().refresh();
      await me.get('/article').expect(200);
      await revokeElsewhere(key.id);
      await authentication().refresh();
      const refused = await me.get('/article');
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      await expect(me.post('/article/create', { content: 'c' })).resolves.toMatchObject({ status: 401 });
    });

    it('refuses a key revoked elsewhere, without a refresh, once a second has passed', async () => {
      const key = await newKey(harness(), 'Ana', 'author');
      const me = as(harness(), key.token);
      await authentication().refresh();
      await me.get('/article').expect(200);
      await revokeElsewhere(key.id);
      clock.advance(1001);
      await expect(me.get('/article')).resolves.toMatchObject({ status: 401 });
    });

    it('refuses a key revoked through POST /key/revoke at once', async () => {
      const admin = as(harness(), (await newKey(harness(), 'Root', 'admin')).token);
      const key = await newKey(harness(), 'Ana', 'author');
      const me = as(harness(), key.token);
      await me.get('/article').expect(200);
      await authentication().refresh();
      await me.get('/article').expect(200);
      const revoked = await admin.post('/key/revoke', { id: key.id }).expect(200);
      expect(revoked.body.data).toMatchObject({ id: key.id, revokedAt: clock.now().toISOString() });
      await expect(me.get('/article')).resolves.toMatchObject({ status: 401 });
      await expect(me.post('/article/create', { content: 'c' })).resolves.toMatchObject({ status: 401 });
      const listed = await admin.get('/key').expect(200);
      expect(listed.body.data.find((kept: { id: string }) => kept.id === key.id)).toMatchObject({
        revokedAt: expect.any(String),
      });
    });

    it('refuses an expired key that was cached, while the cache is kept fresh as the service keeps it', async () => {
      const key = await newKey(harness(), 'Ana', 'author', 1);
      const me = as(harness(), key.token);
      await authentication().refresh();
      await me.get('/article').expect(200);
      clock.advance(DAY_MS - 1);
      await authentication().refresh();
      await me.get('/article').expect(200);
      clock.advance(2);
      // What the service's timer does every 400 ms: the cache stays fresh past the expiry.
      await authentication().refresh();
      const expired = await me.get('/article');
      expect(expired.status).toBe(401);
      const write = await me.post('/article/create', { content: 'c' });
      expect(write.status).toBe(401);
    });
  });
}
