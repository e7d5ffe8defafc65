import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/infrastructure/config/config';
import {
  checkPostgresConnectionBudget,
  readPostgresConnectionLimits,
} from '../../src/infrastructure/config/connection-budget';
import { createDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { capturedLogger } from '../support/captured-logger';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { sql } from '../support/postgres-sql';
import { createPostgresDatabase } from '../support/test-databases';

/** The server's own value of a setting, read apart from the code under test; null if unknown. */
async function serverSetting(url: string, name: string): Promise<number | null> {
  const rows = await sql<{ setting: string }>(url, 'SELECT setting FROM pg_settings WHERE name = $1', [name]);
  return rows[0] ? Number(rows[0].setting) : null;
}

describe('the PostgreSQL connection budget, on a real server', () => {
  let database: PostgresFixture;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createPostgresFixture();
    dataSource = database.closeAtTeardown(
      await new DataSource({ type: 'postgres', url: database.url }).initialize(),
      (opened) => opened.destroy(),
    );
  });

  afterAll(async () => {
    await database?.teardown();
  });

  it('reads max_connections and the reserved slots with SHOW', async () => {
    const limits = await readPostgresConnectionLimits(dataSource);

    expect(limits).toEqual({
      maxConnections: await serverSetting(database.url, 'max_connections'),
      superuserReservedConnections: await serverSetting(database.url, 'superuser_reserved_connections'),
      // Before PostgreSQL 16 the setting does not exist, and nothing else is reserved.
      reservedConnections: (await serverSetting(database.url, 'reserved_connections')) ?? 0,
    });
  });

  it('logs the total, and warns only when the server would refuse part of it', async () => {
    const maxConnections = (await serverSetting(database.url, 'max_connections')) as number;
    const small = capturedLogger();
    const large = capturedLogger();

    await checkPostgresConnectionBudget(
      dataSource,
      { kind: 'postgres', url: database.url, poolSize: 1 },
      2,
      small.logger,
    );
    const budget = await checkPostgresConnectionBudget(
      dataSource,
      { kind: 'postgres', url: database.url, poolSize: maxConnections },
      2,
      large.logger,
    );

    // Each process also holds the key refresh's session.
    expect(small.lines).toEqual([expect.objectContaining({ level: 30, poolSize: 1, workers: 2, total: 4 })]);
    expect(budget).toMatchObject({ total: 2 * (maxConnections + 1), exceeded: true });
    expect(large.lines.map((line) => line.level)).toEqual([30, 40]);
    expect(large.lines[1]?.msg).toContain(`(PG_POOL_SIZE + 1) × WORKERS = ${2 * (maxConnections + 1)} exceeds`);
  });

  it('warns, without failing the start, when the settings cannot be read', async () => {
    const closed = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    await closed.destroy();
    const { logger, lines } = capturedLogger();

    await expect(
      checkPostgresConnectionBudget(closed, { kind: 'postgres', url: database.url, poolSize: 10 }, 1, logger),
    ).resolves.toBeNull();
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: expect.stringContaining('could not read') })]);
  });
});

describe('PG_POOL_SIZE', () => {
  it('bounds the connections one process opens', async () => {
    const database = await createPostgresDatabase();
    const config = loadConfig({ DATABASE_URL: database.url, PG_POOL_SIZE: '2' }).database;
    if (config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const dataSource = await createDataSource(config).initialize();
    try {
      // Six statements at once, each holding its connection a moment: a pool of two serves
      // them on two server processes at most, one after another.
      const rows = await Promise.all(
        Array.from({ length: 6 }, () => dataSource.query('SELECT pg_backend_pid() AS pid, pg_sleep(0.05)')),
      );
      const backends = new Set(rows.map((answer: Array<{ pid: number }>) => answer[0]?.pid));

      expect(backends.size).toBeGreaterThan(0);
      expect(backends.size).toBeLessThanOrEqual(2);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});
