import type { Express } from 'express';
import {
  type ArticleRepository,
  AuthenticateRequest,
  CheckReadiness,
  type Clock,
  CreateArticle,
  CreateKey,
  CreateWebhook,
  DeleteArticle,
  DeleteWebhook,
  GetArticle,
  GetArticleBySlug,
  ListArticleRevisions,
  ListCategories,
  ListKeys,
  ListTags,
  ListVisibleArticles,
  ListWebhookDeliveries,
  ListWebhooks,
  ReadFeed,
  RecordedWriteEvents,
  RestoreArticle,
  RevokeKey,
  SeedArticles,
  ServiceLifecycle,
  UpdateArticle,
} from '../../src/application';
import { InMemoryKeyRepository } from '../../src/infrastructure/persistence/memory/in-memory-key-repository';
import { InMemoryWebhookRepository } from '../../src/infrastructure/persistence/memory/in-memory-webhook-repository';
import { NodeTokenSecrets } from '../../src/infrastructure/security/node-token-secrets';
import { SystemClock } from '../../src/infrastructure/time/system-clock';
import { createHttpApp } from '../../src/interfaces/http/app';
import { ArticleController } from '../../src/interfaces/http/controllers/article-controller';
import { FeedController } from '../../src/interfaces/http/controllers/feed-controller';
import { HealthController } from '../../src/interfaces/http/controllers/health-controller';
import { KeyController } from '../../src/interfaces/http/controllers/key-controller';
import { SeedController } from '../../src/interfaces/http/controllers/seed-controller';
import { TermController } from '../../src/interfaces/http/controllers/term-controller';
import { WebhookController } from '../../src/interfaces/http/controllers/webhook-controller';
import type { ListTextCache } from '../../src/interfaces/http/list-text-cache';
import { UserController } from '../../src/interfaces/user-demo/user-controller';
import { capturedLogger } from './captured-logger';

export interface AppOnRepositoryOptions {
  logger?: ReturnType<typeof capturedLogger>['logger'];
  /** Default: none, every whole list is read from the repository. */
  listCache?: ListTextCache | null;
  /** Default: 1,024 bytes. */
  bodyLimitBytes?: number;
}

/**
 * The HTTP app wired by hand around one repository, without the composition root: for tests
 * whose repository is a subclass that fails or counts on purpose.
 */
export function appOnRepository(repository: ArticleRepository, options: AppOnRepositoryOptions = {}): Express {
  const clock = new SystemClock();
  const create = new CreateArticle(repository, clock);
  const list = new ListVisibleArticles(repository, clock);
  const keys = new InMemoryKeyRepository();
  const secrets = new NodeTokenSecrets();
  const authentication = new AuthenticateRequest(keys, secrets, clock, { apiToken: null, freshForMs: 1_000 });
  return createHttpApp(
    {
      articles: new ArticleController(
        {
          create,
          update: new UpdateArticle(repository, clock),
          delete: new DeleteArticle(repository, clock),
          list,
          get: new GetArticle(repository, clock),
          getBySlug: new GetArticleBySlug(repository, clock),
          restore: new RestoreArticle(repository, clock),
          revisions: new ListArticleRevisions(repository, clock),
        },
        clock,
        options.listCache ?? null,
      ),
      seed: new SeedController(new SeedArticles(create, list), clock),
      terms: new TermController(new ListTags(repository), new ListCategories(repository)),
      health: new HealthController(
        new CheckReadiness({ pingReads: async () => {}, pingWrites: async () => {} }, new ServiceLifecycle(), 1000),
      ),
      feeds: new FeedController(
        new ReadFeed(repository, clock, 20),
        {
          publicUrl: 'http://localhost:3000',
          articleUrlTemplate: 'http://localhost:3000/article/slug/{slug}',
          title: 'Blog',
        },
        clock,
      ),
      webhooks: webhookController(clock),
      users: new UserController(),
      keys: new KeyController(
        new CreateKey(keys, secrets, clock, null),
        new ListKeys(keys),
        new RevokeKey(keys, clock, null),
      ),
    },
    {
      // No key is ever made here: the open rules.
      authenticate: (token) => authentication.execute(token),
      bodyLimitBytes: options.bodyLimitBytes ?? 1024,
      logger: options.logger ?? capturedLogger().logger,
      corsOrigin: null,
      rateLimitPerMinute: null,
      trustProxyHops: 0,
      seedEnabled: true,
      isShuttingDown: () => false,
    },
  );
}

/** Webhooks on a store of their own: these tests' repositories record no events. */
function webhookController(clock: Clock): WebhookController {
  const webhooks = new InMemoryWebhookRepository();
  return new WebhookController({
    create: new CreateWebhook(webhooks, clock, {
      urls: { problemWith: async () => null },
      newId: () => 'wh_1',
      newSecret: () => 'whsec_AAAA',
      writeEvents: new RecordedWriteEvents(webhooks, clock, () => 'evt_1', 1_000),
      settle: async () => {},
    }),
    list: new ListWebhooks(webhooks),
    delete: new DeleteWebhook(webhooks),
    deliveries: new ListWebhookDeliveries(webhooks),
  });
}
