import 'reflect-metadata';
import type { Tracer } from '@opentelemetry/api';
import { type Bind, Container, ContainerModule, type MapToResolvedValueInjectOptions } from 'inversify';
import {
  type ArticleRepository,
  AuthenticateRequest,
  CheckReadiness,
  type Clock,
  CreateArticle,
  CreateKey,
  DeleteArticle,
  GetArticle,
  GetArticleBySlug,
  type KeyChangesReader,
  type KeyRepository,
  ListArticleRevisions,
  ListCategories,
  ListKeys,
  ListTags,
  ListVisibleArticles,
  PurgeExpiredIdempotencyKeys,
  PurgeExpiredRevisions,
  ReadFeed,
  RestoreArticle,
  RevokeKey,
  SeedArticles,
  ServiceLifecycle,
  type StorageProbe,
  type TokenSecrets,
  UpdateArticle,
} from '../application';
import type { AppConfig } from '../infrastructure/config/config';
import { sha256JsonFingerprint } from '../infrastructure/fingerprint/sha256-json-fingerprint';
import { createLogger, type Logger } from '../infrastructure/logging/logger';
import { NodeTokenSecrets } from '../infrastructure/security/node-token-secrets';
import { SystemClock } from '../infrastructure/time/system-clock';
import { ArticleController } from '../interfaces/http/controllers/article-controller';
import { FeedController } from '../interfaces/http/controllers/feed-controller';
import { HealthController } from '../interfaces/http/controllers/health-controller';
import { KeyController } from '../interfaces/http/controllers/key-controller';
import { SeedController } from '../interfaces/http/controllers/seed-controller';
import { TermController } from '../interfaces/http/controllers/term-controller';
import { ListTextCache } from '../interfaces/http/list-text-cache';
import { UserController } from '../interfaces/user-demo/user-controller';
import { storageModule } from './storage-modules';
import { type StorageLifecycle, TOKENS } from './tokens';
import { withUseCaseSpans } from './traced-use-cases';
import { webhookModule } from './webhook-module';

/** Expired rows (Idempotency-Key records, revisions) removed by one statement, and statements in one purge run at most. */
const PURGE_BATCHES = { batchSize: 1_000, maxBatches: 100 };

/** A revoked key is refused by every instance within this (AuthenticateRequest's cache). */
export const KEY_REVOCATION_BOUND_MS = 1_000;

/** How long /ready waits for the storage: well under the 3 s an orchestrator's probe allows. */
const READY_TIMEOUT_MS = 1_000;

export interface ContainerOverrides {
  logger?: Logger;
  clock?: Clock;
  /**
   * Set when tracing is on (src/instrumentation.ts): spans per use case and per statement, and
   * trace ids on log lines. Unset, nothing is wrapped.
   */
  tracer?: Tracer;
}

/** The composition root: the one place that knows every layer. main.ts and the tests call it. */
export async function buildContainer(config: AppConfig, overrides: ContainerOverrides = {}): Promise<Container> {
  const container = new Container();
  const { tracer } = overrides;
  const logger =
    overrides.logger ?? createLogger(config.logLevel, config.logFormat, undefined, { traceIds: tracer !== undefined });
  const clock = overrides.clock ?? new SystemClock();
  container.load(
    coreModule(config, logger, clock),
    await storageModule(config.database, logger, clock, config.workers, tracer),
    webhookModule(config),
    useCaseModule(tracer),
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
    bind<TokenSecrets>(TOKENS.TokenSecrets).toConstantValue(new NodeTokenSecrets());
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

/** The use cases; with a tracer, each call of the methods named is a span (traced-use-cases.ts). */
function useCaseModule(tracer: Tracer | undefined): ContainerModule {
  const traced = <T extends object>(useCase: T, methods: readonly (keyof T & string)[]): T =>
    tracer ? withUseCaseSpans(useCase, methods, tracer) : useCase;
  const bindUseCase = <T extends object, A extends unknown[]>(
    bind: Bind,
    type: new (...args: A) => T,
    dependencies: MapToResolvedValueInjectOptions<A>,
    methods: readonly (keyof T & string)[],
  ) =>
    bind(type)
      .toResolvedValue((...args: A) => traced(new type(...args), methods), dependencies)
      .inSingletonScope();

  return new ContainerModule(({ bind }) => {
    bind(CreateArticle)
      .toResolvedValue(
        (articles: ArticleRepository, clock: Clock, config: AppConfig) =>
          traced(
            new CreateArticle(articles, clock, {
              fingerprint: sha256JsonFingerprint,
              retentionMs: config.idempotencyKeyRetentionMs,
            }),
            ['execute'],
          ),
        [TOKENS.ArticleRepository, TOKENS.Clock, TOKENS.Config],
      )
      .inSingletonScope();
    // The purge runs on a timer, outside any request: not traced.
    bind(PurgeExpiredIdempotencyKeys)
      .toResolvedValue(
        (articles: ArticleRepository, clock: Clock, config: AppConfig) =>
          new PurgeExpiredIdempotencyKeys(articles, clock, {
            retentionMs: config.idempotencyKeyRetentionMs,
            ...PURGE_BATCHES,
          }),
        [TOKENS.ArticleRepository, TOKENS.Clock, TOKENS.Config],
      )
      .inSingletonScope();
    bindUseCase(bind, UpdateArticle, [TOKENS.ArticleRepository, TOKENS.Clock], ['execute']);
    bind(PurgeExpiredRevisions)
      .toResolvedValue(
        (articles: ArticleRepository, clock: Clock, config: AppConfig) =>
          new PurgeExpiredRevisions(articles, clock, { retentionMs: config.revisionRetentionMs, ...PURGE_BATCHES }),
        [TOKENS.ArticleRepository, TOKENS.Clock, TOKENS.Config],
      )
      .inSingletonScope();
    bindUseCase(bind, DeleteArticle, [TOKENS.ArticleRepository, TOKENS.Clock], ['execute']);
    bindUseCase(bind, RestoreArticle, [TOKENS.ArticleRepository, TOKENS.Clock], ['execute']);
    bindUseCase(bind, ListArticleRevisions, [TOKENS.ArticleRepository, TOKENS.Clock], ['execute']);
    // `batches` (the streamed list) is a generator, not traced as a use case: its statements are.
    bindUseCase(bind, ListVisibleArticles, [TOKENS.ArticleRepository, TOKENS.Clock], ['page', 'execute']);
    bindUseCase(bind, GetArticle, [TOKENS.ArticleRepository, TOKENS.Clock], ['execute']);
    bindUseCase(bind, GetArticleBySlug, [TOKENS.ArticleRepository, TOKENS.Clock], ['execute']);
    bind(ReadFeed)
      .toResolvedValue(
        (articles: ArticleRepository, clock: Clock, config: AppConfig) =>
          traced(new ReadFeed(articles, clock, config.feeds.size), ['execute']),
        [TOKENS.ArticleRepository, TOKENS.Clock, TOKENS.Config],
      )
      .inSingletonScope();
    bindUseCase(bind, ListTags, [TOKENS.ArticleRepository], ['execute']);
    bindUseCase(bind, ListCategories, [TOKENS.ArticleRepository], ['execute']);
    bindUseCase(bind, SeedArticles, [CreateArticle, ListVisibleArticles], ['execute']);
    bindSingleton(bind, ServiceLifecycle, []);
    // Runs on every request: not a span of its own (its look-ups are, as statements).
    bind(AuthenticateRequest)
      .toResolvedValue(
        (keys: KeyRepository, secrets: TokenSecrets, clock: Clock, config: AppConfig, changes: KeyChangesReader) =>
          new AuthenticateRequest(
            keys,
            secrets,
            clock,
            { apiToken: config.apiToken, freshForMs: KEY_REVOCATION_BOUND_MS },
            changes,
          ),
        [TOKENS.KeyRepository, TOKENS.TokenSecrets, TOKENS.Clock, TOKENS.Config, TOKENS.KeyChangesReader],
      )
      .inSingletonScope();
    bindUseCase(
      bind,
      CreateKey,
      [TOKENS.KeyRepository, TOKENS.TokenSecrets, TOKENS.Clock, AuthenticateRequest],
      ['execute'],
    );
    bindUseCase(bind, ListKeys, [TOKENS.KeyRepository], ['execute']);
    bindUseCase(bind, RevokeKey, [TOKENS.KeyRepository, TOKENS.Clock, AuthenticateRequest], ['execute']);
    // Readiness is asked by probes every few seconds, whose requests are not traced either.
    bind(CheckReadiness)
      .toResolvedValue(
        (probe: StorageProbe, lifecycle: ServiceLifecycle) => new CheckReadiness(probe, lifecycle, READY_TIMEOUT_MS),
        [TOKENS.StorageProbe, ServiceLifecycle],
      )
      .inSingletonScope();
  });
}

const controllerModule = new ContainerModule(({ bind }) => {
  bind(ArticleController)
    .toResolvedValue(
      (create, update, remove, list, get, getBySlug, restore, revisions, clock: Clock, config: AppConfig) =>
        new ArticleController(
          { create, update, delete: remove, list, get, getBySlug, restore, revisions },
          clock,
          config.listCacheBytes > 0 ? new ListTextCache(config.listCacheBytes) : null,
        ),
      [
        CreateArticle,
        UpdateArticle,
        DeleteArticle,
        ListVisibleArticles,
        GetArticle,
        GetArticleBySlug,
        RestoreArticle,
        ListArticleRevisions,
        TOKENS.Clock,
        TOKENS.Config,
      ],
    )
    .inSingletonScope();
  bindSingleton(bind, SeedController, [SeedArticles, TOKENS.Clock]);
  bindSingleton(bind, TermController, [ListTags, ListCategories]);
  bindSingleton(bind, HealthController, [CheckReadiness]);
  bind(FeedController)
    .toResolvedValue(
      (readFeed: ReadFeed, config: AppConfig, clock: Clock) => new FeedController(readFeed, config.feeds, clock),
      [ReadFeed, TOKENS.Config, TOKENS.Clock],
    )
    .inSingletonScope();
  bindSingleton(bind, KeyController, [CreateKey, ListKeys, RevokeKey]);
  bindSingleton(bind, UserController, []);
});
