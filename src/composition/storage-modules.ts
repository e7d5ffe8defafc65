import { ContainerModule } from 'inversify';
import type { StorageProbe } from '../application';
import type { DatabaseConfig } from '../infrastructure/config/config';
import type { Logger } from '../infrastructure/logging/logger';
import { InMemoryArticleRepository } from '../infrastructure/persistence/memory/in-memory-article-repository';
import { openDataSource } from '../infrastructure/persistence/typeorm/data-source';
import { ReplicaReads } from '../infrastructure/persistence/typeorm/replica-reads';
import {
  TypeOrmArticleRepository,
  type TypeOrmArticleRepositoryOptions,
} from '../infrastructure/persistence/typeorm/typeorm-article-repository';
import { TypeOrmStorageProbe } from '../infrastructure/persistence/typeorm/typeorm-storage-probe';
import { type StorageLifecycle, TOKENS } from './tokens';

/** One module per adapter set; the configuration chooses, never NODE_ENV. */
export async function storageModule(database: DatabaseConfig, logger: Logger): Promise<ContainerModule> {
  if (database.kind === 'memory') return memoryStorageModule();
  return typeOrmStorageModule(database, logger);
}

function memoryStorageModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.ArticleRepository).toConstantValue(new InMemoryArticleRepository());
    // Memory is always there while the process is.
    bind<StorageProbe>(TOKENS.StorageProbe).toConstantValue({ ping: async () => {} });
    bind<StorageLifecycle>(TOKENS.StorageLifecycle).toConstantValue({ close: async () => {} });
  });
}

/** Connects and migrates before anything is bound, so the service never answers on an old schema. */
async function typeOrmStorageModule(
  database: Exclude<DatabaseConfig, { kind: 'memory' }>,
  logger: Logger,
): Promise<ContainerModule> {
  const dataSource = await openDataSource(database, {
    onIdleConnectionError: (error) =>
      logger.warn({ err: error }, 'idle PostgreSQL connection lost; the pool replaces it'),
  });
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.ArticleRepository).toConstantValue(
      new TypeOrmArticleRepository(dataSource, repositoryOptions(database)),
    );
    bind<StorageProbe>(TOKENS.StorageProbe).toConstantValue(new TypeOrmStorageProbe(dataSource));
    bind<StorageLifecycle>(TOKENS.StorageLifecycle).toConstantValue({
      close: async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
      },
    });
  });
}

/** PostgreSQL's switches for the adapter: prepared statements (off behind PgBouncer), reads on replicas. */
function repositoryOptions(database: Exclude<DatabaseConfig, { kind: 'memory' }>): TypeOrmArticleRepositoryOptions {
  if (database.kind !== 'postgres') return {};
  return {
    preparedStatements: database.preparedStatements ?? true,
    ...((database.readUrls ?? []).length > 0 && {
      replicaReads: new ReplicaReads({ maxLagMs: database.replicaMaxLagMs ?? 1_000 }),
    }),
  };
}
