import type { ArticleRepository, IdempotencyClaim } from '../../src/application';
import { StorageUnavailableError } from '../../src/domain';
import { aNewArticle } from '../support/builders';
import { holdKeyedCreate } from '../support/held-keyed-create';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { LockHolder, PostgresSessions } from '../support/postgres-sessions';
import { openSqlSubject } from '../support/sql-subject';
import type { ContractSubject } from './article-repository';

const createdAt = new Date('2026-06-01T10:00:00.000Z');
const claim = (key: string): IdempotencyClaim => ({
  key,
  fingerprint: 'fingerprint-1',
  expiredUpTo: new Date(createdAt.getTime() - 24 * 3_600_000),
});

/**
 * Keyed creates on PostgreSQL at the moments the shared contract cannot reach on every
 * storage: a create under the key still in progress in another session, and a session that
 * dies inside a keyed create's transaction.
 */
describe('keyed creates on PostgreSQL, at their worst moments', () => {
  let subject: ContractSubject;
  let repository: ArticleRepository;
  let sessions: PostgresSessions;
  let holder: LockHolder;
  let database: PostgresFixture;
  const count = async () =>
    (
      await sessions.query<{ articles: number; keys: number }>(
        'SELECT (SELECT count(*)::int FROM articles) AS articles, (SELECT count(*)::int FROM idempotency_keys) AS keys',
      )
    )[0];

  beforeAll(async () => {
    database = await createPostgresFixture();
    // The fixture drops the database, after the subject has closed its connections.
    subject = database.closeAtTeardown(
      await openSqlSubject({ kind: 'postgres', url: database.url }, () => {}),
      (opened) => opened.close(),
    );
    repository = subject.repository;
    sessions = database.closeAtTeardown(await PostgresSessions.open(database.url), (opened) => opened.close());
    holder = database.closeAtTeardown(await LockHolder.open(database.url), (opened) => opened.close());
  });
  beforeEach(() => subject.reset());
  afterAll(async () => {
    await database?.teardown();
  });

  it('answers in-progress at once while another session holds the key uncommitted, and writes nothing', async () => {
    // The very statement of a keyed create, left uncommitted in another session.
    await holdKeyedCreate(holder, claim('busy'), createdAt);
    try {
      await expect(repository.createWithKey(aNewArticle().at(createdAt).build(), claim('busy'))).resolves.toEqual({
        outcome: 'in-progress',
      });
      // Another key is not held up.
      await expect(repository.createWithKey(aNewArticle().at(createdAt).build(), claim('free'))).resolves.toMatchObject(
        { outcome: 'created' },
      );
    } finally {
      await holder.release();
    }
    // The first one rolled back: the key is free again, and the retry creates.
    await expect(repository.createWithKey(aNewArticle().at(createdAt).build(), claim('busy'))).resolves.toMatchObject({
      outcome: 'created',
    });
    expect(await count()).toEqual({ articles: 2, keys: 2 });
  });

  it('stores neither article nor key when the session dies inside the create; the retry creates once', async () => {
    // An uncommitted tag of the name the create needs: the create blocks inside its transaction, after its claim.
    await holder.hold(`INSERT INTO tags (id, name) VALUES ('held', 'blocked name')`);
    const pending = repository.createWithKey(aNewArticle().at(createdAt).withTags('blocked name').build(), claim('k'));
    try {
      await sessions.terminate(await sessions.blockedBy(holder.pid));
      await expect(pending).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await holder.release();
    }
    expect(await count()).toEqual({ articles: 0, keys: 0 });

    const retried = await repository.createWithKey(
      aNewArticle().at(createdAt).withTags('blocked name').build(),
      claim('k'),
    );
    const again = await repository.createWithKey(
      aNewArticle().at(createdAt).withTags('blocked name').build(),
      claim('k'),
    );
    expect([retried.outcome, again.outcome]).toEqual(['created', 'stored']);
    expect(await count()).toEqual({ articles: 1, keys: 1 });
  });
});
