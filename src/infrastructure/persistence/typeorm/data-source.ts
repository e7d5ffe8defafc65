import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../config/config';
import { buildEntitySchemas, type SqlDialect } from './entities';
import { MIGRATIONS } from './migrations';
import { POSTGRES_LIMITS } from './postgres-limits';

export type SqlDatabaseConfig = Exclude<DatabaseConfig, { kind: 'memory' }>;

export function dialectOf(database: SqlDatabaseConfig): SqlDialect {
  return database.kind;
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

/** The one description of the database connection, used by the service and the TypeORM CLI. */
export function dataSourceOptions(database: SqlDatabaseConfig, events: DataSourceEvents = {}): DataSourceOptions {
  const common = {
    entities: buildEntitySchemas(dialectOf(database)),
    migrations: MIGRATIONS[dialectOf(database)],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: false,
  } as const;
  if (database.kind === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: database.url,
      poolErrorHandler: events.onIdleConnectionError ?? warnIdleConnectionLost,
      // pg and pg-pool options; see postgres-limits.ts for why these values.
      extra: {
        max: database.poolSize ?? POSTGRES_LIMITS.poolSize,
        connectionTimeoutMillis: POSTGRES_LIMITS.connectMs,
        statement_timeout: POSTGRES_LIMITS.statementMs,
        idle_in_transaction_session_timeout: POSTGRES_LIMITS.idleInTransactionMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: POSTGRES_LIMITS.keepAliveInitialDelayMs,
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    enableWAL: true,
    // FULL: a commit is on disk before the answer goes out, so an acknowledged write survives a crash.
    prepareDatabase: (db: Database.Database) => {
      db.pragma('synchronous = FULL');
      db.pragma('busy_timeout = 5000');
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
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}
