import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from 'pg';
import { DataSource, type DataSourceOptions, MigrationExecutor } from 'typeorm';
import type { PostgresDatabaseConfig, SqlDatabaseConfig } from '../../config/config';
import { buildEntitySchemas } from './entities';
import { MIGRATIONS } from './migrations';
import { POSTGRES_LIMITS } from './postgres-limits';
import { type SqliteDatabase, sqliteDriver } from './sqlite-driver';
import { endConnectionOnUnreadableMessage } from './unreadable-message-guard';

/** Whether TypeORM sends 'slave' runners to read replicas (PostgreSQL with DATABASE_READ_URLS). */
export function readsFromReplicas(options: DataSourceOptions): boolean {
  return options.type === 'postgres' && Boolean(options.replication);
}

export interface DataSourceEvents {
  /**
   * A pooled PostgreSQL connection failed while idle (the server stopped, or the network
   * dropped it). pg-pool has already removed it, and the next request connects anew; without
   * a listener the pool's 'error' event would crash the process. Default: a process warning.
   */
  onIdleConnectionError?: (error: Error) => void;
}

const warnIdleConnectionLost = (error: Error) =>
  process.emitWarning(`idle PostgreSQL connection lost (${error.message}); the pool replaces it`);

/**
 * pg-pool's hook for each new connection, before anyone uses it. node-postgres emits 'error' on
 * a client whose connection fails, and an 'error' nobody hears ends the process. The pool
 * listens while a client is idle and TypeORM's query runner while it holds one, but not in the
 * moment between: the pool hands a new client over synchronously when its handshake completes,
 * and the query runner attaches its listener a microtask later, after the parser has gone on
 * through the rest of the same network read. A server that ends the session at once (its
 * FATAL message in that same read) crashed the process there (the terminate-all fault test).
 *
 * So every client gets a listener of its own for its whole life, and the hook lets one turn of
 * the event loop pass before the client is handed over: a connection that failed in that turn
 * is refused, which the pool answers by closing it and failing the checkout with the server's
 * error (57P01 and the like: a 503), instead of handing out a dead client. From then on a
 * message its parser cannot read ends the connection, not the process (unreadable-message-guard.ts).
 */
function guardNewConnection(client: Client): Promise<void> {
  endConnectionOnUnreadableMessage(client.connection.stream);
  let failure: Error | undefined;
  // Later errors are handled by whoever holds the client (the pool, a query runner); this only
  // keeps an error in a gap between them from being unheard.
  client.on('error', (error: Error) => {
    failure ??= error;
  });
  return new Promise((resolve, reject) => setImmediate(() => (failure ? reject(failure) : resolve())));
}

/** The one description of the database connection, used by the service and the TypeORM CLI. */
export function dataSourceOptions(database: SqlDatabaseConfig, events: DataSourceEvents = {}): DataSourceOptions {
  const common = {
    entities: buildEntitySchemas(database.kind),
    migrations: MIGRATIONS[database.kind],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: false,
  } as const;
  if (database.kind === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      ...connectionTargets(database),
      poolErrorHandler: events.onIdleConnectionError ?? warnIdleConnectionLost,
      // pg and pg-pool options; see postgres-limits.ts for why these values.
      extra: {
        max: database.poolSize ?? POSTGRES_LIMITS.poolSize,
        connectionTimeoutMillis: POSTGRES_LIMITS.connectMs,
        // Startup parameters. PgBouncer refuses them, so behind it they are ignored there and set
        // on the role instead (docs/OPERATIONS.md, "Time limits through PgBouncer").
        statement_timeout: POSTGRES_LIMITS.statementMs,
        idle_in_transaction_session_timeout: POSTGRES_LIMITS.idleInTransactionMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: POSTGRES_LIMITS.keepAliveInitialDelayMs,
        onConnect: guardNewConnection,
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    driver: sqliteDriver(),
    database: database.path,
    enableWAL: true,
    // FULL: a commit is on disk before the answer goes out, so an acknowledged write survives a crash.
    prepareDatabase: (db: SqliteDatabase) => {
      db.pragma('synchronous = FULL');
      db.pragma('busy_timeout = 5000');
    },
  };
}

/**
 * The primary alone, or with DATABASE_READ_URLS TypeORM replication: one pool per server, each
 * of the pool size. Only the repository's reads ask for a replica ('slave'); every other query
 * runner, migrations and the readiness probe included, gets the primary (defaultMode).
 */
function connectionTargets(database: PostgresDatabaseConfig) {
  const readUrls = database.readUrls ?? [];
  if (readUrls.length === 0) return { url: database.url };
  return {
    replication: {
      master: { url: database.url },
      slaves: readUrls.map((url) => ({ url })),
      defaultMode: 'master' as const,
    },
  };
}

export function createDataSource(database: SqlDatabaseConfig, events: DataSourceEvents = {}): DataSource {
  if (database.kind === 'sqlite' && database.path !== ':memory:') {
    fs.mkdirSync(path.dirname(path.resolve(database.path)), { recursive: true });
  }
  return new DataSource(dataSourceOptions(database, events));
}

/** Connects and brings the schema to the current version. */
export async function openDataSource(database: SqlDatabaseConfig, events: DataSourceEvents = {}): Promise<DataSource> {
  const dataSource = createDataSource(database, events);
  await dataSource.initialize();
  try {
    await migrateUnderLock(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/**
 * The key of the PostgreSQL advisory lock that migrations run under ("blog" in ASCII). Advisory
 * locks are per database, so services on other databases of the same server do not wait.
 */
export const MIGRATION_LOCK_KEY = 0x626c6f67;
const MIGRATION_LOCK_POLL_MS = 100;

/**
 * Applies the pending migrations. On PostgreSQL they run in one transaction that first takes a
 * transaction-scoped advisory lock: instances starting together on an empty database would
 * otherwise race to create the same tables, and all but one fail. The others wait for the lock,
 * then find nothing pending. The lock is the transaction's, not the session's, because behind
 * PgBouncer in transaction mode only a transaction keeps one server connection: a session lock
 * taken by one statement stayed on a server connection the unlock never reached, and every
 * later start straight on the database then waited for it forever. Without a statement timeout
 * in that transaction: a migration may take longer than a request may (an index on a large table).
 */
export async function migrateUnderLock(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner('master');
  try {
    await runner.connect();
    await runner.startTransaction();
    // Polled rather than waited for, so that each statement stays short while another instance migrates.
    while (!(await runner.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [MIGRATION_LOCK_KEY]))[0].locked) {
      await sleep(MIGRATION_LOCK_POLL_MS);
    }
    await runner.query('SET LOCAL statement_timeout = 0');
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'none';
    await executor.executePendingMigrations();
    // The commit ends the lock with the transaction.
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => {});
    throw error;
  } finally {
    await runner.release();
  }
}
