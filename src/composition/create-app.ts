import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Registry } from 'prom-client';
import { AuthenticateRequest, ServiceLifecycle } from '../application';
import type { AppConfig } from '../infrastructure/config/config';
import type { Logger } from '../infrastructure/logging/logger';
import type { webhookMetrics } from '../infrastructure/observability/webhook-metrics';
import { createHttpApp, type HttpAppControllers, openApiDocumentOf } from '../interfaces/http/app';
import { ArticleController } from '../interfaces/http/controllers/article-controller';
import { FeedController } from '../interfaces/http/controllers/feed-controller';
import { HealthController } from '../interfaces/http/controllers/health-controller';
import { KeyController } from '../interfaces/http/controllers/key-controller';
import { SeedController } from '../interfaces/http/controllers/seed-controller';
import { TermController } from '../interfaces/http/controllers/term-controller';
import { WebhookController } from '../interfaces/http/controllers/webhook-controller';
import { UserController } from '../interfaces/user-demo/user-controller';
import { TOKENS } from './tokens';

/** The Express app with its controllers resolved from the container; it does not listen. */
export function createApp(container: Container): Express {
  const config = container.get<AppConfig>(TOKENS.Config);
  const lifecycle = container.get(ServiceLifecycle);
  const authentication = container.get(AuthenticateRequest);
  return createHttpApp(controllersOf(container), {
    authenticate: (token) => authentication.execute(token),
    bodyLimitBytes: config.bodyLimitBytes,
    logger: container.get<Logger>(TOKENS.Logger),
    corsOrigin: config.corsOrigin,
    rateLimitPerMinute: config.rateLimitPerMinute,
    trustProxyHops: config.trustProxyHops,
    seedEnabled: config.seedEnabled,
    isShuttingDown: () => lifecycle.isShuttingDown,
    metricRegistries: [
      ...container.get<Registry[]>(TOKENS.StorageMetrics),
      container.get<ReturnType<typeof webhookMetrics>>(TOKENS.WebhookMetrics).registry,
    ],
  });
}

/** The OpenAPI document createApp(container) would serve, without building the app. */
export function createOpenApiDocument(container: Container): object {
  return openApiDocumentOf(controllersOf(container), container.get<AppConfig>(TOKENS.Config));
}

function controllersOf(container: Container): HttpAppControllers {
  return {
    articles: container.get(ArticleController),
    seed: container.get(SeedController),
    terms: container.get(TermController),
    feeds: container.get(FeedController),
    webhooks: container.get(WebhookController),
    health: container.get(HealthController),
    keys: container.get(KeyController),
    users: container.get(UserController),
  };
}
