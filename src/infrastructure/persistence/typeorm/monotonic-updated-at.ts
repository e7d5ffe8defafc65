import type { DataSource } from 'typeorm';
import { ENTITY } from './entities';

/**
 * What an UPDATE writes into updated_at: the later of the stored stamp and the use case's clock
 * reading. Concurrent updates of one article (several pooled PostgreSQL connections, or several
 * processes on one SQLite file) can commit in another order than the one in which they read the
 * clock; writing the reading as is would let updated_at move back. This way the update that
 * commits last carries the latest stamp.
 *
 * `parameter` is the reading as the driver stores it (a Date for PostgreSQL, TypeORM's UTC text
 * for SQLite, which then compares in time order), to be bound as `:updatedAt`.
 */
export function laterUpdatedAt(dataSource: DataSource, updatedAt: Date): { value: () => string; parameter: unknown } {
  const column = dataSource.getMetadata(ENTITY.article).findColumnWithPropertyName('updatedAt');
  if (!column) throw new Error('the article entity has no updatedAt column');
  const larger = dataSource.options.type === 'postgres' ? 'GREATEST' : 'MAX';
  return {
    value: () => `${larger}(:updatedAt, "${column.databaseName}")`,
    parameter: dataSource.driver.preparePersistentValue(updatedAt, column),
  };
}
