import type { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PoolClient, QueryResult } from 'pg';
import type { SqlStatement } from './sql-statement';
import { openSqliteDatabase, type SqliteDatabase, type SqliteStatement } from './sqlite-driver';

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

  /**
   * Several statements in one simple-protocol message, so one round trip: `text` holds no
   * parameters (its values are literals). Answers each statement's rows, in order.
   */
  async queryAll(text: string): Promise<unknown[][]> {
    const results = (await this.client.query(text)) as unknown as QueryResult | QueryResult[];
    return (Array.isArray(results) ? results : [results]).map((result) => result.rows);
  }

  /** The connection's socket, which emits 'data' as the server's bytes arrive (pg's own stream). */
  get socket(): EventEmitter | undefined {
    return (this.client as unknown as { connection?: { stream?: EventEmitter } }).connection?.stream;
  }

  discard(): void {
    // An ended client is dropped by the pool when the query runner releases it.
    void this.client.end().catch(() => {});
  }
}

/** better-sqlite3's prepared statements by SQL text, with the parameter numbers each one uses. */
export type SqlitePreparedStatements = Map<string, { statement: SqliteStatement; numbers: number[] }>;

/**
 * better-sqlite3's connection, with each statement prepared once. Parameters are named after
 * their position (`@p1`), so one value may appear several times; each statement binds the
 * ones it uses.
 */
export class SqliteConnection implements SqlConnection {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly prepared: SqlitePreparedStatements,
  ) {}

  async query<Row>(statement: SqlStatement, values: readonly unknown[]): Promise<Row[]> {
    const prepared = this.statementFor(statement);
    const bound = this.bind(statement, values);
    if (prepared.reader) return prepared.all(bound) as Row[];
    prepared.run(bound);
    return [];
  }

  private entryFor(statement: SqlStatement) {
    let entry = this.prepared.get(statement.text);
    if (!entry) {
      const numbers = [...new Set([...statement.text.matchAll(/@p(\d+)/g)].map((match) => Number(match[1])))];
      entry = { statement: this.db.prepare(statement.text), numbers };
      this.prepared.set(statement.text, entry);
    }
    return entry;
  }

  private statementFor(statement: SqlStatement): SqliteStatement {
    return this.entryFor(statement).statement;
  }

  /** The values a statement uses, by their names (`p1` for the first). */
  private bind(statement: SqlStatement, values: readonly unknown[]): Record<string, unknown> {
    const bound: Record<string, unknown> = {};
    for (const n of this.entryFor(statement).numbers) bound[`p${n}`] = values[n - 1];
    return bound;
  }

  /**
   * better-sqlite3's iterator: one statement, one read transaction (a snapshot in WAL mode) for
   * its whole life, rows decoded one at a time. SQLite is synchronous, so a chunk is read in one
   * go and the next only after a turn of the event loop, so that other requests run between.
   * While the iterator is open this connection cannot run anything else: the repository streams
   * on a connection of its own.
   */
  async *stream<Row>(statement: SqlStatement, values: readonly unknown[], chunkSize: number): AsyncGenerator<Row[]> {
    const rows = this.statementFor(statement).iterate(this.bind(statement, values)) as IterableIterator<Row>;
    try {
      for (;;) {
        const chunk: Row[] = [];
        while (chunk.length < chunkSize) {
          const next = rows.next();
          if (next.done) break;
          chunk.push(next.value);
        }
        if (chunk.length > 0) yield chunk;
        if (chunk.length < chunkSize) return;
        await nextTurn();
      }
    } finally {
      rows.return?.();
    }
  }

  discard(): void {
    // One connection for the whole process: there is nothing to replace it with.
  }
}

/**
 * A read-only connection to a SQLite file for one stream. It waits for a lock as the main
 * connection does (busy_timeout); in WAL mode a reader is blocked only while the file recovers.
 */
export function openSqliteReader(file: string): SqliteDatabase {
  const reader = openSqliteDatabase(file, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  return reader;
}
