import { CreateArticle, PurgeExpiredIdempotencyKeys } from '../../../src/application';
import { IdempotencyKeyReusedError, OPEN_ACTOR, UnknownReferenceError } from '../../../src/domain';
import { sha256JsonFingerprint } from '../../../src/infrastructure/fingerprint/sha256-json-fingerprint';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { TestClock } from '../../support/test-clock';

const HOUR_MS = 3_600_000;

describe('CreateArticle.executeWithKey', () => {
  let repository: InMemoryArticleRepository;
  let clock: TestClock;
  let createArticle: CreateArticle;

  beforeEach(() => {
    repository = new InMemoryArticleRepository();
    clock = new TestClock('2026-05-06T07:08:09.123Z');
    createArticle = new CreateArticle(repository, clock, {
      fingerprint: sha256JsonFingerprint,
      retentionMs: 24 * HOUR_MS,
    });
  });

  it('creates once and replays the same request, whatever the order of its keys', async () => {
    const first = await createArticle.executeWithKey(
      { title: 't', content: 'c', tag: [{ name: 'x' }] },
      'k',
      OPEN_ACTOR,
    );
    clock.advance(1_000);
    const again = await createArticle.executeWithKey(
      { tag: [{ name: 'x' }], content: 'c', title: 't' },
      'k',
      OPEN_ACTOR,
    );

    expect(first.replayed).toBe(false);
    expect(again).toEqual({ article: first.article, replayed: true });
    await expect(repository.listVisible({ moment: clock.now(), limit: 10 })).resolves.toHaveLength(1);
  });

  it('refuses another request under a used key, and writes nothing', async () => {
    await createArticle.executeWithKey({ content: 'c' }, 'k', OPEN_ACTOR);
    await expect(
      createArticle.executeWithKey({ content: 'other', tag: [{ name: 'n' }] }, 'k', OPEN_ACTOR),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    await expect(repository.listVisible({ moment: clock.now(), limit: 10 })).resolves.toHaveLength(1);
    await expect(repository.listTerms('tag')).resolves.toEqual([]);
  });

  it('tells a null title from a missing one: they are different requests', async () => {
    await createArticle.executeWithKey({ content: 'c' }, 'k', OPEN_ACTOR);
    await expect(createArticle.executeWithKey({ content: 'c', title: null }, 'k', OPEN_ACTOR)).rejects.toBeInstanceOf(
      IdempotencyKeyReusedError,
    );
  });

  it('stores no key for a create that fails, so that the retry creates', async () => {
    await expect(
      createArticle.executeWithKey({ content: 'c', tag: [{ id: 'nope' }] }, 'k', OPEN_ACTOR),
    ).rejects.toBeInstanceOf(UnknownReferenceError);
    await expect(createArticle.executeWithKey({ content: 'c' }, 'k', OPEN_ACTOR)).resolves.toMatchObject({
      replayed: false,
    });
  });

  it('replays until the retention has passed, then processes the key anew', async () => {
    const first = await createArticle.executeWithKey({ content: 'c' }, 'k', OPEN_ACTOR);
    clock.advance(24 * HOUR_MS - 1);
    await expect(createArticle.executeWithKey({ content: 'c' }, 'k', OPEN_ACTOR)).resolves.toMatchObject({
      replayed: true,
    });
    clock.set(new Date(first.article.createdAt.getTime() + 24 * HOUR_MS));
    const anew = await createArticle.executeWithKey({ content: 'c' }, 'k', OPEN_ACTOR);
    expect(anew.replayed).toBe(false);
    expect(anew.article.id).not.toBe(first.article.id);
  });
});

describe('PurgeExpiredIdempotencyKeys', () => {
  it('removes expired records in batches, at most maxBatches statements a run, and keeps the live ones', async () => {
    const repository = new InMemoryArticleRepository();
    const clock = new TestClock('2026-05-01T00:00:00.000Z');
    const create = new CreateArticle(repository, clock, { fingerprint: sha256JsonFingerprint, retentionMs: HOUR_MS });
    for (let n = 0; n < 7; n++) await create.executeWithKey({ content: 'c' }, `old ${n}`, OPEN_ACTOR);
    clock.advance(2 * HOUR_MS);
    await create.executeWithKey({ content: 'c' }, 'live', OPEN_ACTOR);
    const purge = new PurgeExpiredIdempotencyKeys(repository, clock, {
      retentionMs: HOUR_MS,
      batchSize: 2,
      maxBatches: 3,
    });

    await expect(purge.execute()).resolves.toBe(6);
    await expect(purge.execute()).resolves.toBe(1);
    await expect(purge.execute()).resolves.toBe(0);
    await expect(create.executeWithKey({ content: 'c' }, 'live', OPEN_ACTOR)).resolves.toMatchObject({
      replayed: true,
    });
  });
});

describe('sha256JsonFingerprint', () => {
  it('is the same for the same JSON value in any key order, and differs otherwise', () => {
    const a = sha256JsonFingerprint.of({ b: [1, { y: 2, x: null }], a: 'é' });
    expect(sha256JsonFingerprint.of({ a: 'é', b: [1, { x: null, y: 2 }] })).toBe(a);
    expect(sha256JsonFingerprint.of({ a: 'é', b: [{ x: null, y: 2 }, 1] })).not.toBe(a);
    expect(sha256JsonFingerprint.of({ a: 'é', b: [1, { y: 2 }] })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
