import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { StorageUnavailableError } from '../../src/domain';
import type { PostgresDatabaseConfig } from '../../src/infrastructure/config/config';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import {
  KEY_REFRESH_APPLICATION_NAME,
  KeyChangesOnOwnSession,
} from '../../src/infrastructure/persistence/typeorm/key-repository/key-changes-on-own-session';
import { TypeOrmKeyRepository } from '../../src/infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { freePort } from '../support/free-port';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { sql } from '../support/postgres-sql';

/**
 * The key refresh runs every 400 ms so that a revoked key is refused within 1 s. On the request
 * pool it would wait behind every request whenever the pool is busy; on a session of its own it
 * reads the revocations whatever the requests hold.
 */
const MIGRATED = () => true;

describe('the key refresh on a PostgreSQL session of its own', () => {
  let database: PostgresFixture;
  let config: PostgresDatabaseConfig;
  let requestPool: DataSource;

  beforeAll(async () => {
    database = await createPostgresFixture();
    config = { kind: 'postgres', url: database.url, poolSize: 1 };
    requestPool = database.closeAtTeardown(await openDataSource(config), (opened) => opened.destroy());
  });

  afterAll(async () => {
    await database?.teardown();
  });

  it('reads the revocations while every pooled connection is taken, where the pool would refuse', async () => {
    const ownSession = database.closeAtTeardown(new KeyChangesOnOwnSession(config, {}, MIGRATED), (opened) =>
      opened.close(),
    );
    const onThePool = new TypeOrmKeyRepository(requestPool);
    const held = requestPool.createQueryRunner('master');
    await held.connect();
    try {
      await expect(onThePool.changesSince(new Date(0))).rejects.toThrow(StorageUnavailableError);
      await expect(ownSession.changesSince(new Date(0))).resolves.toEqual({ keys: 0, revoked: [] });
    } finally {
      await held.release();
    }
  });

  it('names its one session, so that an operator tells it from the pool, and closes it', async () => {
    const ownSession = new KeyChangesOnOwnSession(config, {}, MIGRATED);
    const named = () =>
      sql<{ pid: number }>(database.url, 'SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
        KEY_REFRESH_APPLICATION_NAME,
      ]);
    // The other tests' readers stay open until the teardown.
    const others = (await named()).length;
    await ownSession.changesSince(new Date(0));
    await ownSession.changesSince(new Date(0));
    expect(await named()).toHaveLength(others + 1);

    await ownSession.close();
    for (let wait = 0; wait < 100 && (await named()).length > others; wait++) await sleep(20);
    expect(await named()).toHaveLength(others);
  });

  it('fails as the storage does (503) before the schema is current, and while the server is away', async () => {
    const beforeMigrations = new KeyChangesOnOwnSession(config, {}, () => false);
    await expect(beforeMigrations.changesSince(new Date(0))).rejects.toThrow(StorageUnavailableError);

    const away = new URL(database.url);
    away.port = String(await freePort());
    const unreachable = database.closeAtTeardown(
      new KeyChangesOnOwnSession({ ...config, url: away.toString() }, {}, MIGRATED),
      (opened) => opened.close(),
    );
    await expect(unreachable.changesSince(new Date(0))).rejects.toThrow(StorageUnavailableError);
  });

  it('opens its session again after the server ended it', async () => {
    const ownSession = database.closeAtTeardown(new KeyChangesOnOwnSession(config, {}, MIGRATED), (opened) =>
      opened.close(),
    );
    await ownSession.changesSince(new Date(0));
    await sql(database.url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      KEY_REFRESH_APPLICATION_NAME,
    ]);
    // The first poll after may meet the ended session; a later one reads again.
    await ownSession.changesSince(new Date(0)).catch(() => null);
    await expect(ownSession.changesSince(new Date(0))).resolves.toEqual({ keys: 0, revoked: [] });
  });
});
