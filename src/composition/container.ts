import 'reflect-metadata';
import { type Bind, Container, ContainerModule, type MapToResolvedValueInjectOptions } from 'inversify';
import {
  type ArticleRepository,
  CheckReadiness,
  type Clock,
  CreateArticle,
  DeleteArticle,
  GetArticle,
  ListCategories,
  ListTags,
  ListVisibleArticles,
  PurgeExpiredIdempotencyKeys,
  SeedArticles,
  ServiceLifecycle,
  type StorageProbe,
  UpdateArticle,
} from '../application';
import type { AppConfig } from '../infrastructure/config/config';
import { sha256JsonFingerprint } from '../infrastructure/fingerprint/sha256-json-fingerprint';
import { createLogger, type Logger } from '../infrastructure/logging/logger';
import { ArticleController } from '../interfaces/http/controllers/article-controller';
import { HealthController } from '../interfaces/http/controllers/health-controller';
import { SeedController } from '../interfaces/http/controllers/seed-controller';
import { TermController } from '../interfaces/http/controllers/term-controller';
import { UserController } from '../interfaces/user-demo/user-controller';
import { storageModule } from './storage-modules';
import { type StorageLifecycle, TOKENS } from './tokens';

/** Expired Idempotency-Key records removed by one statement, and statements in one purge run at most. */
const KEY_PURGE = { batchSize: 1_000, maxBatches: 100 };

/** How long /ready waits for the storage: well under the 3 s an orchestrator's probe allows. */
const READY_TIMEOUT_MS = 1_000;

export interface ContainerOverrides {
  logger?: Logger;
  clock?: Clock;
}

/** The composition root: the one place that knows every layer. main.ts and the tests call it. */
export async function buildContainer(config: AppConfig, overrides: ContainerOverrides = {}): Promise<Container> {
  const container = new Container();
  const logger = overrides.logger ?? createLogger(config.logLevel, config.logFormat);
  const clock = overrides.clock ?? { now: () => new Date() };
  container.load(
    coreModule(config, logger, clock),
    await storageModule(config.database, logger, config.workers),
    useCaseModule,
    controllerModule,
  );
  return container;
}

export async function closeContainer(container: Container): Promise<void> {
  await container.get<StorageLifecycle>(TOKENS.StorageLifecycle).close();
}

function coreModule(config: AppConfig, logger: Logger, clock: Clock): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AppConfig>(TOKENS.Config).toConstantValue(config);
    bind<Logger>(TOKENS.Logger).toConstantValue(logger);
    bind<Clock>(TOKENS.Clock).toConstantValue(clock);
  });
}

/** Binds a class to one instance, built from the identifiers of its constructor's arguments. */
function bindSingleton<T, A extends unknown[]>(
  bind: Bind,
  type: new (...args: A) => T,
  dependencies: MapToResolvedValueInjectOptions<A>,
): void {
  bind(type)
    .toResolvedValue((...args: A) => new type(...args), dependencies)
    .inSingletonScope();
}

const useCaseModule = new ContainerModule(({ bind }) => {
  bind(CreateArticle)
    .toResolvedValue(
      (articles: ArticleRepository, clock: Clock, config: AppConfig) =>
        new CreateArticle(articles, clock, {
          fingerprint: sha256JsonFingerprint,
          retentionMs: config.idempotencyKeyRetentionMs,
        }),
      [TOKENS.ArticleRepository, TOKENS.Clock, TOKENS.Config],
    )
    .inSingletonScope();
  bind(PurgeExpiredIdempotencyKeys)
    .toResolvedValue(
      (articles: ArticleRepository, clock: Clock, config: AppConfig) =>
        new PurgeExpiredIdempotencyKeys(articles, clock, {
          retentionMs: config.idempotencyKeyRetentionMs,
          ...KEY_PURGE,
        }),
      [TOKENS.ArticleRepository, TOKENS.Clock, TOKENS.Config],
    )
    .inSingletonScope();
  bindSingleton(bind, UpdateArticle, [TOKENS.ArticleRepository, TOKENS.Clock]);
  bindSingleton(bind, DeleteArticle, [TOKENS.ArticleRepository]);
  bindSingleton(bind, ListVisibleArticles, [TOKENS.ArticleRepository]);
  bindSingleton(bind, GetArticle, [TOKENS.ArticleRepository]);
  bindSingleton(bind, ListTags, [TOKENS.ArticleRepository]);
  bindSingleton(bind, ListCategories, [TOKENS.ArticleRepository]);
  bindSingleton(bind, SeedArticles, [CreateArticle, ListVisibleArticles]);
  bindSingleton(bind, ServiceLifecycle, []);
  bind(CheckReadiness)
    .toResolvedValue(
      (probe: StorageProbe, lifecycle: ServiceLifecycle) => new CheckReadiness(probe, lifecycle, READY_TIMEOUT_MS),
      [TOKENS.StorageProbe, ServiceLifecycle],
    )
    .inSingletonScope();
});

const controllerModule = new ContainerModule(({ bind }) => {
  bindSingleton(bind, ArticleController, [
    CreateArticle,
    UpdateArticle,
    DeleteArticle,
    ListVisibleArticles,
    GetArticle,
  ]);
  bindSingleton(bind, SeedController, [SeedArticles]);
  bindSingleton(bind, TermController, [ListTags, ListCategories]);
  bindSingleton(bind, HealthController, [CheckReadiness]);
  bindSingleton(bind, UserController, []);
});
