import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlStatement } from '../sql-statement';

/**
 * Committed when `work` resolves, rolled back when it throws. BEGIN is the dialect's (SQLite
 * takes the write lock at once), so the isolation is the connection's default.
 */
export async function inTransaction<T>(
  connection: SqlConnection,
  sql: Pick<ArticleStatements, 'begin' | 'commit' | 'rollback'>,
  work: () => Promise<T>,
): Promise<T> {
  await connection.query(sql.begin, []);
  try {
    const result = await work();
    await connection.query(sql.commit, []);
    return result;
  } catch (error) {
    // A connection that cannot even roll back is closed, so that nobody reuses it mid-transaction.
    await connection.query(sql.rollback, []).catch(() => connection.discard());
    throw error;
  }
}

/**
 * Runs statements that share their values, in order: one statement where the dialect combines
 * writes, several where it cannot (then the caller's transaction makes them one unit). Answers
 * the last statement's rows.
 */
export async function runInOrder<Row = unknown>(
  connection: SqlConnection,
  statements: readonly SqlStatement[],
  values: unknown[],
): Promise<Row[]> {
  let rows: Row[] = [];
  for (const statement of statements) rows = await connection.query<Row>(statement, values);
  return rows;
}
