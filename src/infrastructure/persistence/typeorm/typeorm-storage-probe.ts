import type { DataSource } from 'typeorm';
import type { StorageProbe } from '../../../application';

/** One `SELECT 1` through the pool (PostgreSQL) or the open file (SQLite). */
export class TypeOrmStorageProbe implements StorageProbe {
  constructor(private readonly dataSource: DataSource) {}

  async ping(): Promise<void> {
    if (!this.dataSource.isInitialized) throw new Error('the data source is closed');
    await this.dataSource.query('SELECT 1');
  }
}
