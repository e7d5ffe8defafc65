import type { PoolClient } from 'pg';
import type { QueryRunner } from 'typeorm';
import { DomainError, StorageUnavailableError } from '../../../../domain';
import { PgConnection } from '../sql-connection';
import type { SqlStatement } from '../sql-statement';
import { withinDeadline, withinIdleDeadline } from '../storage-deadline';

/**
 * The one connection a PostgreSQL stream holds from its first statement to its last. Each
 * statement gets its own deadline, counted from the last bytes the server sent (a chunk that
 * keeps arriving over a slow link is let finish; a silent server is not waited for); after any failure the connection is discarded at the end
 * (it may be mid-statement or in an aborted transaction), else the transaction is committed,
 * which also closes the cursor (it is not WITH HOLD), and the connection goes back to the pool.
 */
export class CursorSession {
  private connection: PgConnection | undefined;
  private connecting: Promise<PoolClient> | undefined;
  private failed = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly prepared: boolean,
    private readonly deadlineMs: number,
    private readonly commit: SqlStatement,
  ) {}

  /** The connection, within the deadline too: a node that holds the login is left like a silent one. */
  async open(): Promise<void> {
    this.connecting = this.runner.connect();
    try {
      this.connection = new PgConnection(await withinDeadline(this.connecting, this.deadlineMs), this.prepared);
    } catch (error) {
      throw new StorageUnavailableError({ cause: error });
    }
  }

  async query<Row>(statement: SqlStatement, values: unknown[]): Promise<Row[]> {
    return this.run((connection) => connection.query<Row>(statement, values));
  }

  /** Several statements with literal values in one round trip (PgConnection.queryAll): their rows. */
  async queryAll(text: string): Promise<unknown[][]> {
    return this.run((connection) => connection.queryAll(text));
  }

  private async run<T>(work: (connection: PgConnection) => Promise<T>): Promise<T> {
    const connection = this.connection as PgConnection;
    try {
      return await withinIdleDeadline(work(connection), this.deadlineMs, connection.socket);
    } catch (error) {
      this.failed = true;
      // The runner was released under us: its connection failed while we used it.
      if (this.runner.isReleased && !(error instanceof DomainError))
        throw new StorageUnavailableError({ cause: error });
      throw error;
    }
  }

  async close(): Promise<void> {
    // Still connecting past the deadline: the runner is released once the connection comes (a
    // runner released before it has one would never give it back to the pool).
    if (!this.connection && this.connecting) {
      const release = () => this.runner.release();
      void this.connecting.then(release, release);
      return;
    }
    if (this.connection && !this.failed) await this.query(this.commit, []).catch(() => {});
    if (this.failed) this.connection?.discard();
    await this.runner.release();
  }
}
