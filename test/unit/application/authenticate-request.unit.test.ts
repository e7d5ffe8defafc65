import { AuthenticateRequest, CreateKey, type KeyRepository, RevokeKey } from '../../../src/application';
import { ADMIN_WITHOUT_AUTHOR } from '../../../src/application/access/authenticate-request';
import { type Actor, UnauthenticatedError } from '../../../src/domain';
import { InMemoryKeyRepository } from '../../../src/infrastructure/persistence/memory/in-memory-key-repository';
import { NodeTokenSecrets } from '../../../src/infrastructure/security/node-token-secrets';
import { TestClock } from '../../support/test-clock';

const FRESH_FOR_MS = 1_000;

/** The repository with its look-ups by hash counted: a request that costs none hit the cache. */
function counted(keys: KeyRepository) {
  const counts = { lookUps: 0 };
  const findByTokenHash = keys.findByTokenHash.bind(keys);
  keys.findByTokenHash = (hash) => {
    counts.lookUps++;
    return findByTokenHash(hash);
  };
  return counts;
}

function setUp(apiToken: string | null = null) {
  const clock = new TestClock('2030-01-01T00:00:00.000Z');
  const keys = new InMemoryKeyRepository();
  const secrets = new NodeTokenSecrets();
  const counts = counted(keys);
  const authentication = new AuthenticateRequest(keys, secrets, clock, { apiToken, freshForMs: FRESH_FOR_MS });
  const create = new CreateKey(keys, secrets, clock, authentication);
  // Another instance's revocation: this one learns of it only through the storage.
  const revokeElsewhere = new RevokeKey(keys, clock, null);
  return { clock, keys, counts, authentication, create, revokeElsewhere };
}

/** execute's answer as a promise, whether it came at once or later. */
const settled = async (answer: Actor | Promise<Actor>): Promise<Actor> => answer;

/** A well-formed token of another deployment: never stored here. */
const setUpToken = () => new NodeTokenSecrets().newToken();

describe('AuthenticateRequest', () => {
  it('no key and no token: the open rules; once a key exists, a request without one is anonymous', async () => {
    const { authentication, create } = setUp();
    await expect(settled(authentication.execute(null))).resolves.toEqual({ kind: 'open' });
    await create.execute({ author: 'Ana', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    await expect(settled(authentication.execute(null))).resolves.toEqual({ kind: 'anonymous' });
  });

  it('a request without a token needs the storage only before the keys were first read', async () => {
    const { authentication, keys, clock } = setUp();
    const changesSince = jest.spyOn(keys, 'changesSince').mockRejectedValueOnce(new Error('storage away'));
    await expect(settled(authentication.execute(null))).rejects.toThrow('storage away');
    await expect(settled(authentication.execute(null))).resolves.toEqual({ kind: 'open' });
    changesSince.mockRejectedValue(new Error('storage away'));
    clock.advance(FRESH_FOR_MS * 10);
    // The primary away for long: reads without a token go on, by the last reading of the keys.
    await expect(settled(authentication.execute(null))).resolves.toEqual({ kind: 'open' });
    expect(changesSince).toHaveBeenCalledTimes(2);
  });

  it('API_TOKEN is an admin without an author; with it set, no token is anonymous', async () => {
    const { authentication } = setUp('secret-token');
    await expect(settled(authentication.execute('secret-token'))).resolves.toEqual(ADMIN_WITHOUT_AUTHOR);
    await expect(settled(authentication.execute(null))).resolves.toEqual({ kind: 'anonymous' });
  });

  it('a key once seen costs no look-up while the view of revocations is fresh', async () => {
    const { authentication, create, counts } = setUp();
    const { token, key } = await create.execute({ author: 'Ana', role: 'editor' }, ADMIN_WITHOUT_AUTHOR);
    await authentication.refresh();
    await expect(settled(authentication.execute(token))).resolves.toMatchObject({
      kind: 'key',
      keyId: key.id,
      role: 'editor',
    });
    for (let n = 0; n < 5; n++) await authentication.execute(token);
    expect(counts.lookUps).toBe(1);
  });

  it('answers at once, without a promise, whatever needs no storage: a cached key, API_TOKEN, no token once read', async () => {
    const { authentication, create } = setUp('secret-token');
    const { token, key } = await create.execute({ author: 'Ana', role: 'editor' }, ADMIN_WITHOUT_AUTHOR);
    await authentication.refresh();
    // The first use reads the key; the next ones are the cache's, the same actor each time.
    const first = await authentication.execute(token);
    expect(authentication.execute(token)).toEqual({ kind: 'key', keyId: key.id, role: 'editor', author: key.author });
    expect(authentication.execute(token)).toBe(first);
    expect(authentication.execute('secret-token')).toBe(ADMIN_WITHOUT_AUTHOR);
    expect(authentication.execute(null)).toEqual({ kind: 'anonymous' });
  });

  it('a cached key whose view of revocations is stale is read again, as a promise', async () => {
    const { authentication, create, clock, counts } = setUp();
    const { token } = await create.execute({ author: 'Ana', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    await authentication.refresh();
    await authentication.execute(token);
    clock.advance(FRESH_FOR_MS + 1);
    const answer = authentication.execute(token);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toMatchObject({ kind: 'key' });
    expect(counts.lookUps).toBe(2);
  });

  it("another instance's revocation is refused after the next refresh, and, without one, once the view is stale", async () => {
    const { authentication, create, revokeElsewhere } = setUp();
    const { token, key } = await create.execute({ author: 'Ana', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    await authentication.refresh();
    await authentication.execute(token);
    await revokeElsewhere.execute({ id: key.id }, ADMIN_WITHOUT_AUTHOR);
    // Within the bound, the cache still answers: the revocation is not read yet.
    await expect(settled(authentication.execute(token))).resolves.toMatchObject({ kind: 'key' });
    await authentication.refresh();
    await expect(settled(authentication.execute(token))).rejects.toBeInstanceOf(UnauthenticatedError);

    const other = setUp();
    const second = await other.create.execute({ author: 'Bo', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    await other.authentication.refresh();
    await other.authentication.execute(second.token);
    await other.revokeElsewhere.execute({ id: second.key.id }, ADMIN_WITHOUT_AUTHOR);
    // No refresh ran (the database away): past the bound the key is read again, and refused.
    other.clock.advance(FRESH_FOR_MS + 1);
    await expect(settled(other.authentication.execute(second.token))).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('a key that expires while kept is refused from its expiry on, the cache fresh or not', async () => {
    const { authentication, create, clock } = setUp();
    const { token } = await create.execute({ author: 'Ana', role: 'author', expiresInDays: 1 }, ADMIN_WITHOUT_AUTHOR);
    await authentication.refresh();
    await expect(settled(authentication.execute(token))).resolves.toMatchObject({ kind: 'key' });
    clock.advance(86_400_000);
    await authentication.refresh();
    await expect(settled(authentication.execute(token))).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('every bad token costs one look-up and gets one message, whatever it is', async () => {
    const { authentication, create, revokeElsewhere, counts, clock } = setUp();
    const valid = await create.execute({ author: 'Ana', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    const expiring = await create.execute({ author: 'Ana', role: 'author', expiresInDays: 1 }, ADMIN_WITHOUT_AUTHOR);
    const revoked = await create.execute({ author: 'Ana', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    await revokeElsewhere.execute({ id: revoked.key.id }, ADMIN_WITHOUT_AUTHOR);
    clock.advance(86_400_000 + 1);
    await authentication.refresh();
    const bad = [
      'blog_unknownunknownunknownunknownunknownunknow',
      valid.token.slice(0, -1),
      `ghp_${valid.token.slice(5)}`,
      '',
      expiring.token,
      revoked.token,
      setUpToken(),
    ];
    const messages = new Set<string>();
    for (const token of bad) {
      const before = counts.lookUps;
      const answer = authentication.execute(token);
      // A refusal waits for its look-up: never an answer at once, never a throw.
      expect(answer).toBeInstanceOf(Promise);
      const refused = await settled(answer).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UnauthenticatedError);
      messages.add((refused as Error).message);
      expect(counts.lookUps - before).toBe(1);
    }
    expect(messages.size).toBe(1);
  });

  it('records each key’s last use in one write, later times winning', async () => {
    const { authentication, create, keys, clock } = setUp();
    const { token, key } = await create.execute({ author: 'Ana', role: 'author' }, ADMIN_WITHOUT_AUTHOR);
    await authentication.execute(token);
    const last = clock.advance(5_000);
    await authentication.execute(token);
    const recordUses = jest.spyOn(keys, 'recordUses');
    await authentication.flushUses();
    await authentication.flushUses();
    expect(recordUses).toHaveBeenCalledTimes(1);
    expect((await keys.list()).find((stored) => stored.id === key.id)?.lastUsedAt).toEqual(last);
  });
});
