import type { DataSource } from 'typeorm';
import { postgresSessions } from './article-repository/postgres-sessions';
import { SqlSessions } from './article-repository/sql-sessions';
import { sqliteSessionsOf } from './article-repository/sqlite-sessions';
import type { PrimaryWriteGate } from './primary-write-gate';
import type { SqlDialect } from './sql-dialect';

/** How a repository that works on the primary alone reaches it. */
export interface PrimaryOnlyOptions {
  /** PostgreSQL: named prepared statements (default); off behind PgBouncer < 1.21 in transaction mode. */
  preparedStatements?: boolean;
  /** PostgreSQL: the gate in front of the primary (see TypeOrmArticleRepositoryOptions). */
  primaryWriteGate?: PrimaryWriteGate;
}

/**
 * Sessions on the primary only, untraced (keys, webhooks: they are polled several times a second,
 * and each poll would be a trace of its own). On SQLite they share the article repository's
 * one-at-a-time sessions of the data source.
 */
export function primaryOnlySessions(
  dataSource: DataSource,
  dialect: SqlDialect,
  options: PrimaryOnlyOptions,
): SqlSessions {
  return new SqlSessions(
    dataSource,
    dialect.serialisesWritersInProcess
      ? sqliteSessionsOf(dataSource)
      : postgresSessions(options.preparedStatements ?? true),
    dialect,
    dialect.failsOver ? (options.primaryWriteGate ?? null) : null,
    null,
  );
}
