import type { Tracer } from '@opentelemetry/api';
import type { DataSource, QueryRunner } from 'typeorm';
import { DomainError, StorageUnavailableError } from '../../../../domain';
import { POSTGRES_LIMITS } from '../postgres-limits';
import { type PrimaryWriteGate, primaryStateAfter } from '../primary-write-gate';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import { translateStorageError } from '../storage-errors';
import type { SyncCommitWatch } from '../sync-commit-warning';
import { TracedSqlConnection } from '../traced-sql-connection';

/** Which server a session runs on, and whether it writes. */
export type SessionTarget = { mode: 'slave' } | { mode: 'master'; use: 'write' | 'read' };
export const WRITE: SessionTarget = { mode: 'master', use: 'write' };
export const PRIMARY_READ: SessionTarget = { mode: 'master', use: 'read' };
export const REPLICA_READ: SessionTarget = { mode: 'slave' };
const isWrite = (target: SessionTarget) => target.mode === 'master' && target.use === 'write';

/** No connection could be had from the pool (refused, timed out, refused at login). */
export class NoConnection extends StorageUnavailableError {}

/**
 * What differs in how PostgreSQL and SQLite run a session (postgres-sessions.ts,
 * sqlite-sessions.ts); SqlSessions holds the rest.
 */
export interface SessionOpening {
  /** The driver's connection, as TypeORM's query runner hands it out, as a SqlConnection. */
  connectionOf(native: unknown): SqlConnection;
  /** A watch for a commit that must not be acknowledged (PostgreSQL); null when there is none. */
  watchCommit(native: unknown): SyncCommitWatch | null;
  /** Starts the session: serialised with the others, or raced against a deadline. */
  schedule<T>(session: () => Promise<T>, deadlineMs: number, onDeadline: () => void): Promise<T>;
}

/**
 * Runs work on a connection of the primary ('master') or of a replica ('slave', the primary
 * when none is configured), through a TypeORM query runner released whatever happens. TypeORM's
 * runners listen for the connection's errors while it is checked out and give a broken one
 * back to the pool to be dropped. A write first asks the primary's write gate; every session
 * on the primary tells it when the primary may be gone.
 */
export class SqlSessions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly opening: SessionOpening,
    private readonly dialect: SqlDialect,
    private readonly writeGate: PrimaryWriteGate | null,
    private readonly tracer: Tracer | null,
  ) {}

  /** The work on one connection of `target`; `deadlineMs` bounds a pooled session (SQLite's need none). */
  async inSession<T>(
    target: SessionTarget,
    work: (connection: SqlConnection) => Promise<T>,
    deadlineMs: number = POSTGRES_LIMITS.callDeadlineMs,
  ): Promise<T> {
    // After shutdown (or before the database was first reached) there is no connection: retry later.
    if (!this.dataSource.isInitialized) throw new StorageUnavailableError();
    const writeGate = target.mode === 'master' ? this.writeGate : null;
    if (isWrite(target)) writeGate?.admitWrite();
    try {
      const result = await this.opening.schedule(
        () => this.onConnection(target, work),
        deadlineMs,
        () => writeGate?.suspect(),
      );
      writeGate?.answered();
      return result;
    } catch (error) {
      if (error instanceof NoConnection) writeGate?.suspect();
      else writeGate?.failed(error);
      throw translateStorageError(error);
    }
  }

  private async onConnection<T>(target: SessionTarget, work: (connection: SqlConnection) => Promise<T>) {
    const runner = this.dataSource.createQueryRunner(target.mode);
    let commit: SyncCommitWatch | null = null;
    try {
      const native = await connectOrFail(runner);
      const connection = this.traced(this.opening.connectionOf(native));
      // Only a write has a commit to watch: a read acknowledges nothing.
      if (isWrite(target)) commit = this.opening.watchCommit(native);
      return await workOn(runner, connection, commit, work);
    } finally {
      commit?.stop();
      await runner.release();
    }
  }

  private traced(connection: SqlConnection): SqlConnection {
    return this.tracer ? new TracedSqlConnection(connection, this.tracer, this.dialect) : connection;
  }
}

/** The runner's connection; NoConnection when none could be had (refused, pool exhausted past its wait, server starting up). */
async function connectOrFail(runner: QueryRunner): Promise<unknown> {
  try {
    return await runner.connect();
  } catch (error) {
    throw new NoConnection({ cause: error });
  }
}

/** The work's result, once its commit is known to count; a failure says whether the connection may be reused. */
async function workOn<T>(
  runner: QueryRunner,
  connection: SqlConnection,
  commit: SyncCommitWatch | null,
  work: (connection: SqlConnection) => Promise<T>,
): Promise<T> {
  try {
    const result = await work(connection);
    if (commit?.cancelled()) {
      // Committed here, perhaps not on the standby a failover would promote: not acknowledged.
      throw new StorageUnavailableError({ cause: new Error('synchronous replication wait cancelled at commit') });
    }
    return result;
  } catch (error) {
    // A connection on a server that is gone or no longer the primary: never reused.
    if (primaryStateAfter(error)) connection.discard();
    // The runner was released under us: its connection failed while we used it.
    if (runner.isReleased && !(error instanceof DomainError)) throw new NoConnection({ cause: error });
    throw error;
  }
}
