import type { DataSource } from 'typeorm';
import type { StorageProbe } from '../../../application';

/**
 * One `SELECT 1` through a query runner of the pool (PostgreSQL: the runner listens for its
 * connection's errors while it holds it) or on the open file (SQLite).
 */
export class TypeOrmStorageProbe implements StorageProbe {
  constructor(private readonly dataSource: DataSource) {}

  async ping(): Promise<void> {
    // Not yet reached (the connector is still retrying), or closed at shutdown.
    if (!this.dataSource.isInitialized) throw new Error('the database is not connected');
    await this.dataSource.query('SELECT 1');
  }
}
