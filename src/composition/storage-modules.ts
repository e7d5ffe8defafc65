import { randomUUID } from 'node:crypto';
import type { Tracer } from '@opentelemetry/api';
import { ContainerModule } from 'inversify';
import type { Registry } from 'prom-client';
import {
  type Clock,
  type KeyChangesReader,
  RecordedWriteEvents,
  type StorageProbe,
  type WebhookRepository,
} from '../application';
import type { DatabaseConfig, PostgresDatabaseConfig, SqliteDatabaseConfig } from '../infrastructure/config/config';
import { checkPostgresConnectionBudget } from '../infrastructure/config/connection-budget';
import type { Logger } from '../infrastructure/logging/logger';
import { DataSourceConnector } from '../infrastructure/persistence/data-source-connector';
import { InMemoryArticleRepository } from '../infrastructure/persistence/memory/in-memory-article-repository';
import { InMemoryAuthors } from '../infrastructure/persistence/memory/in-memory-authors';
import { InMemoryKeyRepository } from '../infrastructure/persistence/memory/in-memory-key-repository';
import { InMemoryWebhookRepository } from '../infrastructure/persistence/memory/in-memory-webhook-repository';
import { InMemoryWebhooks } from '../infrastructure/persistence/memory/in-memory-webhooks';
import {
  TypeOrmArticleRepository,
  type TypeOrmArticleRepositoryOptions,
} from '../infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { openDataSource } from '../infrastructure/persistence/typeorm/data-source';
import { KeyChangesOnOwnSession } from '../infrastructure/persistence/typeorm/key-repository/key-changes-on-own-session';
import { TypeOrmKeyRepository } from '../infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { POSTGRES_LIMITS } from '../infrastructure/persistence/typeorm/postgres-limits';
import { probePrimary } from '../infrastructure/persistence/typeorm/primary-probe';
import { PrimaryWriteGate } from '../infrastructure/persistence/typeorm/primary-write-gate';
import { ReplicaReadPolicy } from '../infrastructure/persistence/typeorm/replica-read-policy';
import { TypeOrmStorageProbe } from '../infrastructure/persistence/typeorm/typeorm-storage-probe';
import { TypeOrmWebhookRepository } from '../infrastructure/persistence/typeorm/webhook-repository/typeorm-webhook-repository';
import { type StorageLifecycle, TOKENS } from './tokens';
import { WEBHOOK_PRESENCE_FRESH_MS } from './webhook-module';

/**
 * One module per adapter set; the configuration chooses, never NODE_ENV. With a tracer, each SQL
 * statement is a span (the in-memory store runs none).
 */
export async function storageModule(
  database: DatabaseConfig,
  logger: Logger,
  clock: Clock,
  workers = 1,
  tracer?: Tracer,
): Promise<ContainerModule> {
  if (database.kind === 'memory') return memoryStorageModule(clock);
  if (database.kind === 'sqlite') return sqliteStorageModule(database, clock, tracer);
  return postgresStorageModule(database, logger, clock, workers, tracer);
}

function memoryStorageModule(clock: Clock): ContainerModule {
  return new ContainerModule(({ bind }) => {
    // One set of authors: a key's author is the one its articles name.
    const authors = new InMemoryAuthors();
    // One outbox: the articles' writes record their events where the deliveries are read.
    const webhooks = new InMemoryWebhookRepository(new InMemoryWebhooks());
    const writeEvents = recordedWriteEvents(webhooks, clock);
    bind(TOKENS.WebhookRepository).toConstantValue(webhooks);
    bind(TOKENS.WriteEvents).toConstantValue(writeEvents);
    bind(TOKENS.ArticleRepository).toConstantValue(new InMemoryArticleRepository(authors, webhooks.store, writeEvents));
    const keys = new InMemoryKeyRepository(authors);
    bind(TOKENS.KeyRepository).toConstantValue(keys);
    bind<KeyChangesReader>(TOKENS.KeyChangesReader).toConstantValue(keys);
    // Memory is always there while the process is.
    bind<StorageProbe>(TOKENS.StorageProbe).toConstantValue({ pingReads: async () => {}, pingWrites: async () => {} });
    bind<StorageLifecycle>(TOKENS.StorageLifecycle).toConstantValue({ close: async () => {} });
    bind<Registry[]>(TOKENS.StorageMetrics).toConstantValue([]);
  });
}

/**
 * SQLite is a file in this process: it opens and migrates before anything is bound, and a file
 * that cannot be opened stops the start (there is nothing to wait for).
 */
async function sqliteStorageModule(
  database: SqliteDatabaseConfig,
  clock: Clock,
  tracer?: Tracer,
): Promise<ContainerModule> {
  const dataSource = await openDataSource(database);
  // Untraced: its poll, every 400 ms, would make a trace of its own 2.5 times a second.
  const keys = new TypeOrmKeyRepository(dataSource);
  // Untraced too: the deliverer polls it.
  const webhooks = new TypeOrmWebhookRepository(dataSource);
  const writeEvents = recordedWriteEvents(webhooks, clock);
  return typeOrmModule(
    new TypeOrmArticleRepository(dataSource, { tracer, writeEvents }),
    // One file, no pool: the poll reads where the keys are.
    { keys, keyChanges: keys, webhooks, writeEvents },
    new TypeOrmStorageProbe(dataSource),
    async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  );
}

/**
 * PostgreSQL may be late (starting, refusing connections, failing over): the service starts
 * anyway and answers 503 until the connector has reached the database and migrated it. When
 * the database is there, the first attempt opens it before anything is bound, as before.
 */
async function postgresStorageModule(
  database: PostgresDatabaseConfig,
  logger: Logger,
  clock: Clock,
  workers: number,
  tracer?: Tracer,
): Promise<ContainerModule> {
  const connector = new DataSourceConnector(database, {
    onIdleConnectionError: (error) =>
      logger.warn({ err: error }, 'idle PostgreSQL connection lost; the pool replaces it'),
    onAttemptFailed: (error, attempt, retryInMs) =>
      logger.warn({ err: error, attempt, retryInMs }, 'PostgreSQL not reachable yet; answering 503 and retrying'),
    onConnected: (attempts) => {
      logger.info({ attempts }, 'PostgreSQL reached and its schema is current; serving from it');
      // Logs PG_POOL_SIZE × WORKERS, and warns when the server allows fewer connections.
      budgetChecked = checkPostgresConnectionBudget(connector.dataSource, database, workers, logger);
    },
  });
  let budgetChecked: Promise<unknown> | undefined;
  await connector.start();
  // Reached at once: the check ends before the service listens (it never throws). Reached
  // later, it runs beside the traffic.
  await budgetChecked;
  const dataSource = connector.dataSource;
  const primaryWriteGate = new PrimaryWriteGate({
    probe: () => probePrimary(dataSource, database.poolSize ?? POSTGRES_LIMITS.poolSize),
    onChange: (state) =>
      state === 'writable'
        ? logger.info({ primary: state }, 'the primary takes writes again; writes go to it')
        : logger.warn({ primary: state }, 'the primary cannot take writes; writes answer 503 until a probe finds it'),
  });
  const options = { ...repositoryOptions(database), primaryWriteGate, tracer };
  const keyChanges = new KeyChangesOnOwnSession(
    database,
    { onIdleConnectionError: (error) => logger.warn({ err: error }, 'the key refresh lost its idle session') },
    () => dataSource.isInitialized,
    primaryWriteGate,
  );
  // Untraced, as on SQLite.
  const webhooks = new TypeOrmWebhookRepository(dataSource, {
    preparedStatements: options.preparedStatements,
    primaryWriteGate,
  });
  // Read on the key refresh's own session, as the keys' poll is: no pooled connection for it.
  const writeEvents = recordedWriteEvents(keyChanges, clock);
  return typeOrmModule(
    new TypeOrmArticleRepository(dataSource, { ...options, writeEvents }),
    {
      keys: new TypeOrmKeyRepository(dataSource, { preparedStatements: options.preparedStatements, primaryWriteGate }),
      keyChanges,
      webhooks,
      writeEvents,
    },
    new TypeOrmStorageProbe(dataSource, primaryWriteGate),
    async () => {
      primaryWriteGate.stop();
      await Promise.all([connector.close(), keyChanges.close()]);
    },
    [primaryWriteGate.registry, ...(options.replicaReadPolicy ? [options.replicaReadPolicy.registry] : [])],
  );
}

function typeOrmModule(
  repository: TypeOrmArticleRepository,
  {
    keys,
    keyChanges,
    webhooks,
    writeEvents,
  }: {
    keys: TypeOrmKeyRepository;
    keyChanges: KeyChangesReader;
    webhooks: TypeOrmWebhookRepository;
    writeEvents: RecordedWriteEvents;
  },
  probe: StorageProbe,
  close: () => Promise<void>,
  metrics: Registry[] = [],
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.ArticleRepository).toConstantValue(repository);
    bind(TOKENS.KeyRepository).toConstantValue(keys);
    bind<KeyChangesReader>(TOKENS.KeyChangesReader).toConstantValue(keyChanges);
    bind(TOKENS.WebhookRepository).toConstantValue(webhooks);
    bind(TOKENS.WriteEvents).toConstantValue(writeEvents);
    bind<StorageProbe>(TOKENS.StorageProbe).toConstantValue(probe);
    bind<StorageLifecycle>(TOKENS.StorageLifecycle).toConstantValue({ close });
    bind<Registry[]>(TOKENS.StorageMetrics).toConstantValue(metrics);
  });
}

/** PostgreSQL's switches for the adapter: prepared statements (off behind PgBouncer), reads on replicas. */
function repositoryOptions(database: PostgresDatabaseConfig): TypeOrmArticleRepositoryOptions {
  return {
    preparedStatements: database.preparedStatements ?? true,
    ...((database.readUrls ?? []).length > 0 && {
      replicaReadPolicy: new ReplicaReadPolicy({ maxLagMs: database.replicaMaxLagMs ?? 1_000 }),
    }),
  };
}

/** The events every write records, with new ids, while some subscription may exist (RecordedWriteEvents). */
function recordedWriteEvents(
  subscriptions: Pick<WebhookRepository, 'anySubscription'>,
  clock: Clock,
): RecordedWriteEvents {
  return new RecordedWriteEvents(
    subscriptions,
    clock,
    () => `evt_${randomUUID().replaceAll('-', '')}`,
    WEBHOOK_PRESENCE_FRESH_MS,
  );
}
