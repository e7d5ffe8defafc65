import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { type Article, StorageUnavailableError } from '../../src/domain';
import { loadConfig } from '../../src/infrastructure/config/config';
import { PRIMARY_AGAIN_AFTER_MS } from '../../src/infrastructure/persistence/typeorm/article-repository/read-attempts';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { dataSourceOptions, openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { ReplicaReadPolicy } from '../../src/infrastructure/persistence/typeorm/replica-read-policy';
import { TypeOrmStorageProbe } from '../../src/infrastructure/persistence/typeorm/typeorm-storage-probe';
import { aNewArticle, READ_MOMENT } from '../support/builders';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { PostgresStatementCounter } from '../support/postgres-statement-counter';
import { SessionEndingProxy } from '../support/session-ending-proxy';
import { SwitchableProxy } from '../support/switchable-proxy';

/**
 * Read routing with TypeORM replication, on real PostgreSQL databases: a "replica" that is the
 * primary's own database seen through a counting proxy (so the test sees which node served),
 * and a "stale replica", another database that lacks the primary's newest rows.
 */
/** A switchover's instant: the primary's proxy is back on its port before the read's pause ends. */
function backBeforeThePause(target: { host: string; port: number }, port: number): Promise<PostgresStatementCounter> {
  return new Promise((resolve) =>
    setTimeout(() => resolve(PostgresStatementCounter.start(target, port)), PRIMARY_AGAIN_AFTER_MS / 3),
  );
}

describe('PostgreSQL reads on replicas', () => {
  let primary: PostgresFixture;
  let stale: PostgresFixture;
  let proxy: PostgresStatementCounter;

  beforeAll(async () => {
    primary = await createPostgresFixture();
    stale = await createPostgresFixture();
    // Both schemas exist: a replica has the primary's schema.
    for (const url of [primary.url, stale.url]) await (await openDataSource({ kind: 'postgres', url })).destroy();
    const { hostname, port } = new URL(primary.url);
    proxy = primary.closeAtTeardown(
      await PostgresStatementCounter.start({ host: hostname, port: Number(port) }),
      (opened) => opened.stop(),
    );
  });
  afterAll(async () => {
    await primary?.teardown();
    await stale?.teardown();
  });

  async function dataSourceWithReplica(replicaUrl: string, primaryUrl: string): Promise<DataSource> {
    const dataSource = new DataSource({
      ...dataSourceOptions({ kind: 'postgres', url: primaryUrl }),
      replication: { master: { url: primaryUrl }, slaves: [{ url: replicaUrl }] },
    } as ConstructorParameters<typeof DataSource>[0]);
    await dataSource.initialize();
    // Closed before the proxy it may read through (the fixture closes last-opened first).
    primary.closeAtTeardown(dataSource, async (opened) => {
      if (opened.isInitialized) await opened.destroy();
    });
    return dataSource;
  }

  async function repositoryWithReplica(
    replicaUrl: string,
    replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000 }),
    primaryUrl = primary.url,
  ) {
    const dataSource = await dataSourceWithReplica(replicaUrl, primaryUrl);
    return { repository: new TypeOrmArticleRepository(dataSource, { replicaReadPolicy }), replicaReadPolicy };
  }

  /** A replica and the primary each behind a switchable proxy, as PgBouncer's two entries, and a repository on them. */
  async function repositoryBehindSwitchableEntries(replicaReadPolicy: ReplicaReadPolicy) {
    const { hostname, port } = new URL(primary.url);
    const target = { host: hostname, port: Number(port) };
    const primaryProxy = primary.closeAtTeardown(await SwitchableProxy.start(target), (opened) => opened.stop());
    const replica = primary.closeAtTeardown(await SwitchableProxy.start(target), (opened) => opened.stop());
    const { repository } = await repositoryWithReplica(
      replica.urlThrough(primary.url),
      replicaReadPolicy,
      primaryProxy.urlThrough(primary.url),
    );
    return { repository, replica, primaryProxy };
  }

  const served = async (replicaReadPolicy: ReplicaReadPolicy) =>
    Object.fromEntries(
      ((await replicaReadPolicy.registry.getSingleMetric('db_reads_total')?.get())?.values ?? []).map((value) => [
        value.labels.node,
        value.value,
      ]),
    );

  it('sends reads to the replica and writes to the primary', async () => {
    const { repository, replicaReadPolicy } = await repositoryWithReplica(proxy.urlThrough(primary.url));
    const before = proxy.count;
    const created = await repository.create(aNewArticle().withTags('r').build());
    expect(proxy.count).toBe(before);

    await expect(repository.findById(created.id)).resolves.toEqual(created);
    await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'r' })).resolves.toEqual([created]);
    await expect(repository.listTerms('tag')).resolves.toEqual(created.tags);
    expect(proxy.count).toBeGreaterThan(before);
    expect(await served(replicaReadPolicy)).toEqual({ replica: 3 });
  });

  it('reads an article just written from the primary when the replica does not have it yet', async () => {
    const { repository } = await repositoryWithReplica(stale.url);
    const created = await repository.create(aNewArticle().build());
    await expect(repository.findById(created.id)).resolves.toEqual(created);
    await expect(repository.findById(2_000_000)).resolves.toBeNull();
  });

  it('asks the primary once more, after a pause, for an article the replica lacks, when the primary failed at that instant', async () => {
    const { hostname, port } = new URL(primary.url);
    const target = { host: hostname, port: Number(port) };
    const primaryProxy = await PostgresStatementCounter.start(target);
    const { repository } = await repositoryWithReplica(
      stale.url,
      new ReplicaReadPolicy({ maxLagMs: 1_000 }),
      primaryProxy.urlThrough(primary.url),
    );
    const created = await repository.create(aNewArticle().build());
    await primaryProxy.stop();
    const back = backBeforeThePause(target, primaryProxy.port);
    try {
      await expect(repository.findById(created.id)).resolves.toEqual(created);
    } finally {
      await (await back).stop();
    }
  });

  it('reads from the primary, with no error, while the replica is down, and from the replica once it is back', async () => {
    const { hostname, port } = new URL(primary.url);
    const target = { host: hostname, port: Number(port) };
    let replica = await PostgresStatementCounter.start(target);
    const replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 200 });
    const { repository } = await repositoryWithReplica(replica.urlThrough(primary.url), replicaReadPolicy);
    const created = await repository.create(aNewArticle().build());
    await replica.stop();

    await expect(repository.findById(created.id)).resolves.toEqual(created);
    await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, afterId: created.id - 1 })).resolves.toEqual([
      created,
    ]);
    expect(replicaReadPolicy.useReplica()).toBe(false);
    expect(await served(replicaReadPolicy)).toEqual({ primary: 2 });

    replica = await PostgresStatementCounter.start(target, replica.port);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(repository.findById(created.id)).resolves.toEqual(created);
    expect(await served(replicaReadPolicy)).toEqual({ primary: 2, replica: 1 });
    await replica.stop();
  });

  it('serves a read from a replica when the primary fails, even while a failed replica read has the replicas skipped', async () => {
    const { hostname, port } = new URL(primary.url);
    const primaryProxy = await PostgresStatementCounter.start({ host: hostname, port: Number(port) });
    // Skipped for longer than the test: only the primary's failure sends the reads to the replica.
    const replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 60_000 });
    const { repository } = await repositoryWithReplica(
      proxy.urlThrough(primary.url),
      replicaReadPolicy,
      primaryProxy.urlThrough(primary.url),
    );
    const created = await repository.create(aNewArticle().withTags('last-try').build());
    replicaReadPolicy.failed();
    await primaryProxy.stop();

    await expect(repository.findById(created.id)).resolves.toEqual(created);
    await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'last-try' })).resolves.toEqual([
      created,
    ]);
    expect(await served(replicaReadPolicy)).toEqual({ replica: 2 });
    // A write has no such fallback: the replica cannot take it.
    await expect(repository.create(aNewArticle().build())).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('serves a read and the whole list from a replica while the primary entry holds them without a word and the replicas are skipped', async () => {
    // Skipped for longer than the test: only the primary's silence sends the reads to the replica.
    const replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 60_000 });
    const { repository, primaryProxy } = await repositoryBehindSwitchableEntries(replicaReadPolicy);
    const created = await repository.create(aNewArticle().build());
    replicaReadPolicy.failed();
    // A switchover as a roll-nodes read met it: PgBouncer holds the primary pool's clients while
    // it waits for the new primary's login, and the replica entry answers.
    primaryProxy.silence();
    try {
      const started = performance.now();
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      const listed: Article[] = [];
      for await (const chunk of repository.streamVisible({ moment: READ_MOMENT, afterId: created.id - 1 }))
        listed.push(...chunk);
      expect(listed).toEqual([created]);
      expect(await served(replicaReadPolicy)).toEqual({ replica: 2 });
      // Each within its 3 s: the primary's attempt ended in time for the replica's.
      expect(performance.now() - started).toBeLessThan(2 * 2_500);
    } finally {
      primaryProxy.restore();
    }
  });

  it('asks the primary once more, after a pause, when the primary and a replica failed at the same instant', async () => {
    const { hostname, port } = new URL(primary.url);
    const target = { host: hostname, port: Number(port) };
    const primaryProxy = await PostgresStatementCounter.start(target);
    const replica = await PostgresStatementCounter.start(target);
    const replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 60_000 });
    const { repository } = await repositoryWithReplica(
      replica.urlThrough(primary.url),
      replicaReadPolicy,
      primaryProxy.urlThrough(primary.url),
    );
    const created = await repository.create(aNewArticle().build());
    replicaReadPolicy.failed();
    await replica.stop();
    await primaryProxy.stop();
    const back = backBeforeThePause(target, primaryProxy.port);
    try {
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      expect(await served(replicaReadPolicy)).toEqual({ primary: 1 });
    } finally {
      await (await back).stop();
    }
  });

  it('asks the primary once more, after a pause, for a read and for the whole list, when the replica did not answer in time and then the primary refused', async () => {
    // A failed replica is skipped for less than a read lasts here: the list starts on the replica too.
    const replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 200 });
    const { repository, replica, primaryProxy } = await repositoryBehindSwitchableEntries(replicaReadPolicy);
    const created = await repository.create(aNewArticle().build());
    // A switchover's second second (the roll-nodes test's one failed read): the replicas' port
    // holds a new session without a word until the read's replica deadline, and the primary's
    // entry then refuses a login once.
    replica.silence();
    primaryProxy.refuse(1);
    try {
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      expect(replica.attempts).toBeGreaterThan(0);
      expect(await served(replicaReadPolicy)).toEqual({ primary: 1 });
      // The whole list, before its first chunk, the same way.
      expect(replicaReadPolicy.useReplica()).toBe(true);
      primaryProxy.refuse(1);
      const listed: Article[] = [];
      for await (const chunk of repository.streamVisible({ moment: READ_MOMENT, afterId: created.id - 1 }))
        listed.push(...chunk);
      expect(listed).toEqual([created]);
      expect(await served(replicaReadPolicy)).toEqual({ primary: 2 });
    } finally {
      replica.restore();
    }
  });

  it('asks the primary again after each pause while the read has time, when its entry refuses login after login', async () => {
    const replicaReadPolicy = new ReplicaReadPolicy({ maxLagMs: 1_000 });
    const { repository, replica, primaryProxy } = await repositoryBehindSwitchableEntries(replicaReadPolicy);
    const created = await repository.create(aNewArticle().build());
    // PgBouncer after a switchover (a roll-nodes run): every login to the replicas' entry is
    // refused, and the primary's entry refuses three logins in a row (its retries failing again).
    replica.refuse(Number.MAX_SAFE_INTEGER);
    primaryProxy.refuse(3);
    await expect(repository.findById(created.id)).resolves.toEqual(created);
    expect(await served(replicaReadPolicy)).toEqual({ primary: 1 });
  });

  it('is ready for reads, as a read is served, when a replica session is shut as the primary fails', async () => {
    const { hostname, port } = new URL(primary.url);
    const target = { host: hostname, port: Number(port) };
    const primaryProxy = await PostgresStatementCounter.start(target);
    const replica = primary.closeAtTeardown(await SessionEndingProxy.start(target), (opened) => opened.stop());
    const probe = new TypeOrmStorageProbe(
      await dataSourceWithReplica(replica.urlThrough(primary.url), primaryProxy.urlThrough(primary.url)),
    );
    await probe.pingReads();

    // A switchover's instant: the replicas' port shuts the session of a read under way, the primary is away.
    replica.endNextStatementSession();
    await primaryProxy.stop();
    await expect(probe.pingReads()).resolves.toBeUndefined();
    expect(replica.sessionsEnded).toBe(1);
    await expect(probe.pingWrites()).rejects.toThrow();
  });

  it('is wired by the composition root from DATABASE_READ_URLS, and shows on /metrics', async () => {
    const config = loadConfig({
      DATABASE_URL: primary.url,
      DATABASE_READ_URLS: proxy.urlThrough(primary.url),
      LOG_LEVEL: 'silent',
    });
    const container = await buildContainer(config);
    try {
      const app = createApp(container);
      const before = proxy.count;
      await request(app).get('/article/1').expect(200);
      expect(proxy.count).toBeGreaterThan(before);
      const metrics = await request(app).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/db_reads_total\{node="replica"\} 1/);
      expect(metrics.text).toMatch(/db_replica_lag_milliseconds 0/);
    } finally {
      await closeContainer(container);
    }
  });
});
