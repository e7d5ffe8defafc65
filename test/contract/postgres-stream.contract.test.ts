import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { STREAM_CHUNK_SIZE } from '../../src/application';
import { type Article, StorageUnavailableError } from '../../src/domain';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { POSTGRES_LIMITS } from '../../src/infrastructure/persistence/typeorm/postgres-limits';
import { aNewArticle, READ_MOMENT } from '../support/builders';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';

/** Smaller than the number of streams the tests open and abandon: a leaked connection shows. */
const POOL_SIZE = 2;
const ARTICLES = STREAM_CHUNK_SIZE * 2 + 100;

interface Session {
  pid: number;
  state: string | null;
  inTransaction: boolean;
}

/**
 * The whole list on PostgreSQL is one statement read through a cursor on a pooled connection:
 * what the server and the pool hold while it is open, after it is closed early, and when it
 * outlives the statement timeout or loses its connection.
 */
describe('the streamed list on PostgreSQL: cursor and connection', () => {
  let database: PostgresFixture;
  let dataSource: DataSource;
  let repository: TypeOrmArticleRepository;
  let admin: Client;

  const pool = () => (dataSource.driver as unknown as { master: Pool }).master;
  /** The service's sessions on the test database (the administrator's excepted). */
  async function sessions(): Promise<Session[]> {
    const { rows } = await admin.query<Session>(
      `SELECT pid, state, xact_start IS NOT NULL AS "inTransaction" FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    return rows;
  }
  async function readAll(stream: AsyncGenerator<Article[]>): Promise<Article[]> {
    const all: Article[] = [];
    for await (const chunk of stream) all.push(...chunk);
    return all;
  }

  beforeAll(async () => {
    database = await createPostgresFixture();
    dataSource = database.closeAtTeardown(
      await openDataSource({ kind: 'postgres', url: database.url, poolSize: POOL_SIZE }),
      (opened) => opened.destroy(),
    );
    // Streams here wait for a slot as long as the test needs; the bound itself has its own test.
    repository = new TypeOrmArticleRepository(dataSource, { streamSlotWaitMs: 60_000 });
    for (let n = 0; n < ARTICLES; n++) {
      await repository.create(
        aNewArticle()
          .with({ title: `a${n}` })
          .withTags(`t${n % 3}`)
          .build(),
      );
    }
    admin = new Client({ connectionString: database.url });
    await admin.connect();
    database.closeAtTeardown(admin, (client) => client.end());
  }, 120_000);

  afterAll(async () => {
    await database?.teardown();
  });

  it('a stream closed after its first chunk leaves no cursor or transaction open, and its connection idle in the pool', async () => {
    const stream = repository.streamVisible({ moment: READ_MOMENT });
    await expect(stream.next()).resolves.toMatchObject({ done: false });
    // While it is open, one session is inside the stream's read-only transaction.
    expect((await sessions()).filter((session) => session.inTransaction)).toHaveLength(1);
    expect(pool().totalCount - pool().idleCount).toBe(1);

    await stream.return(undefined);

    expect((await sessions()).filter((session) => session.inTransaction)).toEqual([]);
    expect(pool().idleCount).toBe(pool().totalCount);
    // Abandoned again and again, more often than the pool has connections: each still gets one.
    for (let n = 0; n < POOL_SIZE * 5; n++) {
      const again = repository.streamVisible({ moment: READ_MOMENT, tagName: `t${n % 3}` });
      await again.next();
      await again.return(undefined);
    }
    expect(pool().idleCount).toBe(pool().totalCount);
    expect(pool().totalCount).toBeLessThanOrEqual(POOL_SIZE);
    await expect(readAll(repository.streamVisible({ moment: READ_MOMENT }))).resolves.toHaveLength(ARTICLES);
  });

  it('answers 503 to a stream that finds no slot within its wait, and leaves the pool as it was', async () => {
    const impatient = new TypeOrmArticleRepository(dataSource, { streamSlotWaitMs: 200 });
    const first = impatient.streamVisible({ moment: READ_MOMENT });
    await first.next();
    try {
      await expect(impatient.streamVisible({ moment: READ_MOMENT }).next()).rejects.toBeInstanceOf(
        StorageUnavailableError,
      );
      await expect(impatient.listVisible({ moment: READ_MOMENT, limit: 5 })).resolves.toHaveLength(5);
    } finally {
      await first.return(undefined);
    }
    expect(pool().idleCount).toBe(pool().totalCount);
  });

  it('streams leave connections to the other requests: a second stream waits for the first, a page does not', async () => {
    const first = repository.streamVisible({ moment: READ_MOMENT });
    await first.next();
    const second = repository.streamVisible({ moment: READ_MOMENT });
    let secondStarted = false;
    const secondChunk = second.next().then((result) => {
      secondStarted = true;
      return result;
    });

    // The pool has 2 connections and the first stream holds one. Give the second stream every
    // chance (2 s) to take the other one: without the limit it does, and the page waits for a 503.
    const until = Date.now() + 2_000;
    while (Date.now() < until && pool().totalCount - pool().idleCount < POOL_SIZE) await sleep(10);
    expect(pool().totalCount - pool().idleCount).toBe(1);
    await expect(repository.listVisible({ moment: READ_MOMENT, limit: 5 })).resolves.toHaveLength(5);
    expect(secondStarted).toBe(false);

    await first.return(undefined);
    await expect(secondChunk).resolves.toMatchObject({ done: false });
    await second.return(undefined);
    expect(pool().idleCount).toBe(pool().totalCount);
  });

  it('a stream read more slowly than the statement timeout still answers the whole list', async () => {
    const stream = repository.streamVisible({ moment: READ_MOMENT });
    const first = await stream.next();
    // The portal stays open past statement_timeout: the session's limit would cancel it here.
    await sleep(POSTGRES_LIMITS.statementMs + 500);
    const rest = await readAll(stream);

    expect([...(first.value as Article[]), ...rest]).toHaveLength(ARTICLES);
    expect(pool().idleCount).toBe(pool().totalCount);
  });

  it('a stream whose session the server ends mid-list fails as unavailable, and the next stream works', async () => {
    const stream = repository.streamVisible({ moment: READ_MOMENT });
    await stream.next();
    const [streaming] = (await sessions()).filter((session) => session.inTransaction);
    await admin.query('SELECT pg_terminate_backend($1)', [(streaming as Session).pid]);

    await expect(readAll(stream)).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(readAll(repository.streamVisible({ moment: READ_MOMENT }))).resolves.toHaveLength(ARTICLES);
    expect(pool().idleCount).toBe(pool().totalCount);
  });
});
