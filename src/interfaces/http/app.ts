import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { decoratedRouter } from '../user-demo/decorated-router';
import type { UserController } from '../user-demo/user-controller';
import { withoutExpressFreshness } from './conditional-get';
import { errorHandler } from './error-mapping';
import { matchPathsExactly, onlyForPaths } from './exact-paths';
import { feedRouteTable } from './feed-routes';
import type { Authenticate } from './middleware/authenticate';
import { FailedAuthentications } from './middleware/failed-authentications';
import { httpMetrics } from './middleware/http-metrics';
import { requestFrame } from './middleware/request-frame';
import { corsFor, rateLimitPerMinute } from './middleware/security';
import { docsRouter } from './openapi/docs-router';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { probeRouteTable } from './probe-routes';
import { routeNotFound } from './request-errors';
import { routeRouter } from './route-router';
import { apiRouteTable, type HttpControllers } from './routes';

export interface HttpAppOptions {
  /** Who a request's bearer token names (AuthenticateRequest). */
  authenticate: Authenticate;
  bodyLimitBytes: number;
  logger: Logger;
  corsOrigin: '*' | readonly string[] | null;
  rateLimitPerMinute: number | null;
  trustProxyHops: number;
  seedEnabled: boolean;
  /** True once shutdown has begun; answers then close their connection. */
  isShuttingDown: () => boolean;
  /** Metrics of other layers served on /metrics beside the HTTP ones (the storage's replica reads). */
  metricRegistries?: readonly Registry[];
}

export interface HttpAppControllers extends HttpControllers {
  users: UserController;
}

/**
 * The Express app, not listening: main.ts serves it, tests drive it with supertest. Order:
 * the request's frame first (its id, headers, log line and count: every answer has them), then
 * the unlimited probes and docs, then the rate limit, then the API.
 */
export function createHttpApp(controllers: HttpAppControllers, options: HttpAppOptions): Express {
  const api = [
    ...apiRouteTable(controllers, { seedEnabled: options.seedEnabled }),
    ...feedRouteTable(controllers.feeds),
  ];
  const probes = probeRouteTable(controllers);
  const document = openApiDocumentOf(controllers, options);
  const metrics = httpMetrics(options.metricRegistries ?? []);
  const routeOptions = {
    authenticate: options.authenticate,
    failedAuthentications: new FailedAuthentications(),
    bodyLimitBytes: options.bodyLimitBytes,
  };

  const app = express();
  matchPathsExactly(app);
  withoutExpressFreshness(app);
  app.disable('x-powered-by');
  // The only entity tags this API sends are the articles' (entity-tag.ts): Express's weak tags of
  // answer bodies would be mistaken for them and sent back in If-Match, never matching.
  app.set('etag', false);
  if (options.trustProxyHops > 0) app.set('trust proxy', options.trustProxyHops);
  app.use(requestFrame({ logger: options.logger, metrics, isShuttingDown: options.isShuttingDown }));
  if (options.corsOrigin !== null) app.use(corsFor(options.corsOrigin));

  app.use(routeRouter(probes, { ...routeOptions, authenticate: null }));
  app.get('/metrics', metrics.endpoint);
  // The docs router matches loosely (any case, an optional trailing slash): only its exact paths reach it.
  app.use(onlyForPaths(isDocsPath, docsRouter(document)));

  if (options.rateLimitPerMinute !== null) app.use(rateLimitPerMinute(options.rateLimitPerMinute));
  app.use(decoratedRouter([controllers.users]));
  app.use(routeRouter(api, routeOptions));

  app.use((request, _response, next) => next(routeNotFound(request.method, request.path)));
  app.use(errorHandler());
  return app;
}

/** GET /openapi.json, and /docs with Swagger UI's page and assets under /docs/. */
function isDocsPath(path: string): boolean {
  return path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');
}

/** The OpenAPI document the app serves at /openapi.json; also written for the linter, without a server. */
export function openApiDocumentOf(
  controllers: HttpControllers,
  options: Pick<HttpAppOptions, 'rateLimitPerMinute' | 'seedEnabled'>,
) {
  return buildOpenApiDocument(
    {
      api: [...apiRouteTable(controllers, { seedEnabled: options.seedEnabled }), ...feedRouteTable(controllers.feeds)],
      probes: probeRouteTable(controllers),
    },
    { rateLimited: options.rateLimitPerMinute !== null },
  );
}
