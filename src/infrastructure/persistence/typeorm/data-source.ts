import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../config/config';
import { buildEntitySchemas, type SqlDialect } from './entities';
import { MIGRATIONS } from './migrations';

export type SqlDatabaseConfig = Exclude<DatabaseConfig, { kind: 'memory' }>;

/** Milliseconds a PostgreSQL statement, or a wait for a pooled connection, may take. */
const POSTGRES_TIMEOUT_MS = 5_000;

export function dialectOf(database: SqlDatabaseConfig): SqlDialect {
  return database.kind;
}

/** The one description of the database connection, used by the service and the TypeORM CLI. */
export function dataSourceOptions(database: SqlDatabaseConfig): DataSourceOptions {
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
      extra: {
        max: 10,
        connectionTimeoutMillis: POSTGRES_TIMEOUT_MS,
        statement_timeout: POSTGRES_TIMEOUT_MS,
        query_timeout: POSTGRES_TIMEOUT_MS + 1_000,
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

export function createDataSource(database: SqlDatabaseConfig): DataSource {
  if (database.kind === 'sqlite' && database.path !== ':memory:') {
    fs.mkdirSync(path.dirname(path.resolve(database.path)), { recursive: true });
  }
  return new DataSource(dataSourceOptions(database));
}

/** Connects and brings the schema to the current version. */
export async function openDataSource(database: SqlDatabaseConfig): Promise<DataSource> {
  const dataSource = createDataSource(database);
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}
