import type { Request, RequestHandler, Router } from 'express';
import type { z } from 'zod';
import { OPEN_ACTOR } from '../../domain';
import { exactRouter } from './exact-paths';
import { type Authenticate, actorOf, authenticated } from './middleware/authenticate';
import type { FailedAuthentications } from './middleware/failed-authentications';
import { jsonBody } from './middleware/json-body';
import { queryParametersOf } from './query-parameters';
import { routeNotFound } from './request-errors';
import {
  MovedPermanently,
  NotModified,
  StreamedList,
  success,
  UnwrappedBody,
  WithHeaders,
  WrappedJsonBody,
} from './response';
import type { RouteDefinition } from './route-definition';
import { writeStreamedList } from './streamed-list';
import { parseInput } from './validation/article-schemas';

export interface RouteRouterOptions {
  /** Who asks; null for routes that no key concerns (the probes): every request is then `open`. */
  authenticate: Authenticate | null;
  /** Refused tokens per address, shared by every route of the app. */
  failedAuthentications: FailedAuthentications;
  bodyLimitBytes: number;
}

/**
 * Serves a route table, each path matched exactly: token, then body, then schemas (path, query,
 * headers, body), then the handler; answers wrapped, with the handler's headers, or streamed when
 * it answers a StreamedList, or a body written before (WrappedJsonBody) as it is, or a 304
 * without a body when it answers NotModified, or a document of its own type (UnwrappedBody), or a wrapped 301 with its Location (MovedPermanently).
 */
export function routeRouter(routes: readonly RouteDefinition[], options: RouteRouterOptions): Router {
  const router = exactRouter();
  const notFound: RequestHandler = (request, _response, next) => next(routeNotFound(request.method, request.path));
  for (const route of routes) {
    const guards: RequestHandler[] = [];
    // The credential is checked before the body is read.
    if (options.authenticate !== null) {
      guards.push(authenticated(options.authenticate, route.write, options.failedAuthentications));
    }
    if (route.body) guards.push(jsonBody(options.bodyLimitBytes));
    router[route.method](route.path, ...guards, async (request, response) => {
      const params = route.params ? parseInput(route.params, request.params) : undefined;
      const query = route.query ? parseInput(route.query, queryParametersOf(request.originalUrl)) : undefined;
      const headers = route.headers && parseInput(route.headers, headersNamedIn(route.headers, request));
      const body = route.body ? parseInput(route.body, request.body) : undefined;
      const actor = options.authenticate === null ? OPEN_ACTOR : actorOf(response);
      const answer = await route.handle({ body, params, query, headers, actor, target: request.originalUrl });
      if (answer instanceof StreamedList)
        return writeStreamedList(response, route.status, answer.batches, answer.headers);
      if (answer instanceof NotModified) return response.set(answer.headers).status(304).end();
      if (answer instanceof MovedPermanently)
        return response.location(answer.location).status(301).json(success(answer.data));
      if (answer instanceof WrappedJsonBody)
        return response.set(answer.headers).status(route.status).type('json').send(answer.body);
      if (answer instanceof UnwrappedBody)
        return response.set(answer.headers).status(route.status).type(answer.contentType).send(answer.body);
      if (answer instanceof WithHeaders) response.set(answer.headers);
      response.status(route.status).json(success(answer instanceof WithHeaders ? answer.data : answer));
    });
    // A known path asked with another method is a 404, like an unknown route.
    router.all(route.path, notFound);
  }
  return router;
}

/** The request headers a schema names, under the names it spells them with (HTTP names ignore case). */
function headersNamedIn(schema: z.ZodObject, request: Request): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, request.get(name)]));
}
