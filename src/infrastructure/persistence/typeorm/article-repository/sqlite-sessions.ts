import { Mutex } from 'async-mutex';
import type { DataSource } from 'typeorm';
import { SqliteConnection, type SqlitePreparedStatements } from '../sql-connection';
import type { SessionOpening } from './sql-sessions';

/**
 * SQLite: better-sqlite3 gives TypeORM a single connection, on which concurrent transactions
 * would interleave (and reads would see uncommitted writes), so sessions run one at a time. It
 * runs in-process and synchronously: there is nothing to wait for past a deadline. Statements
 * are prepared once, for the life of the connection.
 */
function sqliteSessions(): SessionOpening {
  const oneAtATime = new Mutex();
  const statements: SqlitePreparedStatements = new Map();
  return {
    connectionOf: (native) =>
      new SqliteConnection(native as ConstructorParameters<typeof SqliteConnection>[0], statements),
    watchCommit: () => null,
    schedule: (session) => oneAtATime.runExclusive(session),
  };
}

const openingsByDataSource = new WeakMap<DataSource, SessionOpening>();

/**
 * The sessions of every repository on one SQLite data source (articles, keys): one connection,
 * so one queue, or their transactions would interleave on it.
 */
export function sqliteSessionsOf(dataSource: DataSource): SessionOpening {
  let opening = openingsByDataSource.get(dataSource);
  if (!opening) {
    opening = sqliteSessions();
    openingsByDataSource.set(dataSource, opening);
  }
  return opening;
}
