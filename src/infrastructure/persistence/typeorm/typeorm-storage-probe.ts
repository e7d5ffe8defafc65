import type { DataSource, ReplicationMode } from 'typeorm';
import type { StorageProbe } from '../../../application';
import { readsFromReplicas } from './data-source';
import type { PrimaryWriteGate } from './primary-write-gate';
import { sqlDialectOf } from './sql-dialect';
import { withinDeadline } from './storage-deadline';

/** How long concurrent checks share one question to the primary; past it the next check asks anew. */
const PRIMARY_QUESTION_MS = 1_500;

/**
 * Trivial queries through query runners of the pools (PostgreSQL: the runner listens for its
 * connection's errors while it holds it) or on the open file (SQLite). Reads: a replica when
 * they are configured, else (or when it fails) the primary. Writes: the primary answers and
 * is not read-only.
 *
 * The read and the write check of one readiness check (and checks arriving meanwhile) share
 * one question to the primary, so that a check costs one pooled connection there, and an
 * address that swallows packets holds at most one connection per 1.5 s, not one per check.
 */
export class TypeOrmStorageProbe implements StorageProbe {
  private question: Promise<string | undefined> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeGate: PrimaryWriteGate | null = null,
  ) {}

  /**
   * As a read is routed (ReplicaRouting): a replica, else the primary, and when the primary
   * fails too, a replica once more. In a switchover the replicas' port shuts its stand-in
   * sessions as a synchronous standby comes up, while the primary is still away; a read then
   * succeeds on its last replica try, and so must this check, or every instance is marked down
   * at the same instant.
   */
  async pingReads(): Promise<void> {
    this.requireConnected();
    if (!readsFromReplicas(this.dataSource.options)) {
      await this.askPrimary();
      return;
    }
    if (await this.replicaAnswers()) return;
    try {
      await this.askPrimary();
    } catch (error) {
      if (!(await this.replicaAnswers())) throw error;
    }
  }

  /**
   * Asks the primary itself, even while its write gate refuses writes: a writable answer lets
   * them through again, anything else makes the gate probe (the probe also drops pooled connections to a node
   * that is read-only now).
   */
  async pingWrites(): Promise<void> {
    this.requireConnected();
    try {
      if ((await this.askPrimary()) === 'on') throw new Error('the primary is read-only');
    } catch (error) {
      this.writeGate?.suspect();
      throw error;
    }
    this.writeGate?.recovered();
  }

  private async replicaAnswers(): Promise<boolean> {
    try {
      await this.query('slave', 'SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  private requireConnected(): void {
    // Not yet reached (the connector is still retrying), or closed at shutdown.
    if (!this.dataSource.isInitialized) throw new Error('the database is not connected');
  }

  /** The primary's transaction_read_only ('on' or 'off'; undefined on SQLite, which answers SELECT 1). */
  private askPrimary(): Promise<string | undefined> {
    if (!this.question) {
      const sql = sqlDialectOf(this.dataSource.options).readOnlyCheck;
      const asked = withinDeadline(this.query('master', sql), PRIMARY_QUESTION_MS).then((rows) => {
        const ro = (rows[0] as { ro?: unknown } | undefined)?.ro;
        return typeof ro === 'string' ? ro : undefined;
      });
      this.question = asked;
      const forget = () => {
        if (this.question === asked) this.question = null;
      };
      asked.then(forget, forget);
    }
    return this.question;
  }

  private async query(mode: ReplicationMode, sql: string): Promise<unknown[]> {
    const runner = this.dataSource.createQueryRunner(mode);
    try {
      return await runner.query(sql);
    } finally {
      await runner.release();
    }
  }
}
