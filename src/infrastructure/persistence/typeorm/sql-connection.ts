import type Database from 'better-sqlite3';
import type { PoolClient } from 'pg';
import type { SqlStatement } from './article-statements';

/** A connection checked out for one repository call: runs statements, answers rows. */
export interface SqlConnection {
  /** Runs the statement with its positional values; answers its rows ([] when it returns none). */
  query<Row>(statement: SqlStatement, values: readonly unknown[]): Promise<Row[]>;
  /** Closes the connection for good, so that its pool opens a new one instead of reusing it. */
  discard(): void;
}

/**
 * node-postgres's client, as TypeORM's query runner hands it out. With `prepared`, each
 * statement is a named prepared statement: parsed and planned once per connection. A pooler
 * that moves sessions between server connections (PgBouncer before 1.21 in transaction mode)
 * cannot keep those, so there each statement is sent unnamed, as is a statement that must be
 * planned for its values (`planEachTime`).
 */
export class PgConnection implements SqlConnection {
  constructor(
    private readonly client: PoolClient,
    private readonly prepared: boolean,
  ) {}

  async query<Row>(statement: SqlStatement, values: readonly unknown[]): Promise<Row[]> {
    const result = await this.client.query({
      ...(this.prepared && !statement.planEachTime && { name: statement.name }),
      text: statement.text,
      values: values as unknown[],
    });
    return result.rows as Row[];
  }

  discard(): void {
    // An ended client is dropped by the pool when the query runner releases it.
    void this.client.end().catch(() => {});
  }
}

/** better-sqlite3's prepared statements by SQL text, with the parameter numbers each one uses. */
export type SqlitePreparedStatements = Map<string, { statement: Database.Statement; numbers: number[] }>;

/**
 * better-sqlite3's connection, with each statement prepared once. Parameters are named after
 * their position (`@p1`), so one value may appear several times; each statement binds the
 * ones it uses.
 */
export class SqliteConnection implements SqlConnection {
  constructor(
    private readonly db: Database.Database,
    private readonly prepared: SqlitePreparedStatements,
  ) {}

  async query<Row>(statement: SqlStatement, values: readonly unknown[]): Promise<Row[]> {
    let entry = this.prepared.get(statement.text);
    if (!entry) {
      const numbers = [...new Set([...statement.text.matchAll(/@p(\d+)/g)].map((match) => Number(match[1])))];
      entry = { statement: this.db.prepare(statement.text), numbers };
      this.prepared.set(statement.text, entry);
    }
    const bound: Record<string, unknown> = {};
    for (const n of entry.numbers) bound[`p${n}`] = values[n - 1];
    if (entry.statement.reader) return entry.statement.all(bound) as Row[];
    entry.statement.run(bound);
    return [];
  }

  discard(): void {
    // One connection for the whole process: there is nothing to replace it with.
  }
}
