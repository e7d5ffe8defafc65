import type { DataSource } from 'typeorm';
import type { SqlDatabaseConfig } from '../../src/infrastructure/persistence/typeorm/data-source';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/typeorm-article-repository';
import type { ContractSubject } from '../contract/article-repository.contract';

const TABLES = ['article_tags', 'article_categories', 'tags', 'categories', 'articles'];

/** Empties every table and restarts ids, so each test starts from a new database's state. */
export async function emptyDatabase(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type === 'postgres') {
    await dataSource.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`);
    return;
  }
  for (const table of TABLES) await dataSource.query(`DELETE FROM ${table}`);
  await dataSource.query(`DELETE FROM sqlite_sequence`);
}

export async function openSqlSubject(
  database: SqlDatabaseConfig,
  cleanUp: () => Promise<void> | void,
): Promise<ContractSubject> {
  const dataSource = await openDataSource(database);
  return {
    repository: new TypeOrmArticleRepository(dataSource),
    reset: () => emptyDatabase(dataSource),
    close: async () => {
      await dataSource.destroy();
      await cleanUp();
    },
  };
}
