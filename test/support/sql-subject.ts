import type { DataSource } from 'typeorm';
import type { WriteEvents } from '../../src/application';
import type { SqlDatabaseConfig } from '../../src/infrastructure/config/config';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { TypeOrmKeyRepository } from '../../src/infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { TypeOrmWebhookRepository } from '../../src/infrastructure/persistence/typeorm/webhook-repository/typeorm-webhook-repository';
import type { ContractSubject } from '../contract/article-repository';
import type { WebhookContractSubject } from '../contract/webhook-repository';
import { EMPTY_DATABASE_SQL } from './empty-database';

async function emptyDatabase(dataSource: DataSource): Promise<void> {
  const statements = EMPTY_DATABASE_SQL[dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite'];
  for (const statement of statements) await dataSource.query(statement);
}

export async function openSqlSubject(
  database: SqlDatabaseConfig,
  cleanUp: () => Promise<void> | void,
): Promise<ContractSubject> {
  const dataSource = await openDataSource(database);
  const prepared = database.kind === 'postgres' ? { preparedStatements: database.preparedStatements } : {};
  return {
    keys: new TypeOrmKeyRepository(dataSource, prepared),
    // PG_PREPARED_STATEMENTS, as the service reads it from its configuration.
    repository: new TypeOrmArticleRepository(
      dataSource,
      database.kind === 'postgres' ? { preparedStatements: database.preparedStatements } : {},
    ),
    reset: () => emptyDatabase(dataSource),
    close: async () => {
      await dataSource.destroy();
      await cleanUp();
    },
  };
}

/** The article and webhook repositories over one new database, the articles' writes recording through `writeEvents`. */
export async function openSqlWebhookSubject(
  database: SqlDatabaseConfig,
  cleanUp: () => Promise<void> | void,
  writeEvents: WriteEvents,
): Promise<WebhookContractSubject> {
  const dataSource = await openDataSource(database);
  const prepared = database.kind === 'postgres' ? { preparedStatements: database.preparedStatements } : {};
  return {
    articles: new TypeOrmArticleRepository(dataSource, { ...prepared, writeEvents }),
    webhooks: new TypeOrmWebhookRepository(dataSource, prepared),
    reset: () => emptyDatabase(dataSource),
    close: async () => {
      await dataSource.destroy();
      await cleanUp();
    },
  };
}
