import type { DataSource, ReplicationMode } from 'typeorm';
import type { StorageProbe } from '../../../application';
import type { PrimaryBreaker } from './primary-breaker';

/**
 * Trivial queries through query runners of the pools (PostgreSQL: the runner listens for its
 * connection's errors while it holds it) or on the open file (SQLite). Reads: a replica when
 * they are configured, else (or when it fails) the primary. Writes: the primary, its breaker
 * closed, and not read-only.
 */
export class TypeOrmStorageProbe implements StorageProbe {
  constructor(
    private readonly dataSource: DataSource,
    private readonly breaker: PrimaryBreaker | null = null,
  ) {}

  async pingReads(): Promise<void> {
    this.requireConnected();
    const { options } = this.dataSource;
    if (options.type === 'postgres' && options.replication) {
      try {
        await this.query('slave', 'SELECT 1');
        return;
      } catch {
        // The primary may still serve the reads.
      }
    }
    this.breaker?.admit('read');
    await this.query('master', 'SELECT 1');
  }

  async pingWrites(): Promise<void> {
    this.requireConnected();
    this.breaker?.admit('write');
    if (this.dataSource.options.type !== 'postgres') return void (await this.query('master', 'SELECT 1'));
    const [row] = await this.query('master', `SELECT current_setting('transaction_read_only') AS ro`);
    if ((row as { ro?: string } | undefined)?.ro === 'on') throw new Error('the primary is read-only');
  }

  private requireConnected(): void {
    // Not yet reached (the connector is still retrying), or closed at shutdown.
    if (!this.dataSource.isInitialized) throw new Error('the database is not connected');
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
