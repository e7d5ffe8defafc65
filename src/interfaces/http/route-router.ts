import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { OPEN_ACTOR } from '../../domain';
import { type Authenticate, actorOf, authenticated } from './middleware/authenticate';
import type { FailedAuthentications } from './middleware/failed-authentications';
import { ROUTE_LABEL } from './middleware/http-metrics';
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
import { RoutePaths } from './route-paths';
import { sendJson } from './send-json';
import { writeStreamedList } from './streamed-list';
import { parseInput } from './validation/article-schemas';

export interface RouteRouterOptions {
  /** Who asks; null for routes that no key concerns (the probes): every request is then `open`. */
  authenticate: Authenticate | null;
  /** Refused tokens per address, shared by every route of the app. */
  failedAuthentications: FailedAuthentications;
  bodyLimitBytes: number;
}

/** The route table a router serves, for whoever lists the app's routes (the OpenAPI test). */
export type RouteTableHandler = RequestHandler & { readonly routes: readonly RouteDefinition[] };

/**
 * Serves a route table as one middleware: the route found by its exact path (route-paths.ts),
 * then token, body, schemas (path, query, headers, body) and the handler, run as one chain of
 * calls rather than Express router layers walked per request. Answers wrapped, with the
 * handler's headers, or streamed when it answers a StreamedList, or a body written before
 * (WrappedJsonBody) as it is, or a 304 without a body when it answers NotModified, or a document
 * of its own type (UnwrappedBody), or a wrapped 301 with its Location (MovedPermanently). A known
 * path asked with another method is a 404, like an unknown route; other paths go on.
 */
export function routeRouter(routes: readonly RouteDefinition[], options: RouteRouterOptions): RouteTableHandler {
  const paths = new RoutePaths<{ method: string; serve: RequestHandler }>();
  for (const route of routes)
    paths.add(route.path, { method: route.method.toUpperCase(), serve: servingOf(route, options) });
  const handler: RequestHandler = (request, response, next) => {
    const found = paths.find(request.path);
    if (found === null) return next();
    const { method, serve } = found.value;
    // HEAD is served by a GET route, as Express does.
    if (method !== request.method && !(method === 'GET' && request.method === 'HEAD')) {
      return next(routeNotFound(request.method, request.path));
    }
    request.params = found.params;
    serve(request, response, next);
  };
  return Object.assign(handler, { routes });
}

/** One route's guards and handler as a single handler; any error goes to `next`. */
function servingOf(route: RouteDefinition, options: RouteRouterOptions): RequestHandler {
  const guards: RequestHandler[] = [];
  // The credential is checked before the body is read.
  if (options.authenticate !== null) {
    guards.push(authenticated(options.authenticate, route.write, options.failedAuthentications));
  }
  if (route.body) guards.push(jsonBody(options.bodyLimitBytes));
  const handle = (request: Request, response: Response, next: NextFunction) => {
    handleAndAnswer(route, options, request, response).catch(next);
  };
  const serve = guards.reduceRight<RequestHandler>(
    (after, guard) => (request, response, next) =>
      guard(request, response, (error?: unknown) =>
        error === undefined || error === null ? after(request, response, next) : next(error),
      ),
    handle,
  );
  return (request, response, next) => {
    response.locals[ROUTE_LABEL] = route.path;
    serve(request, response, next);
  };
}

/** The route's inputs checked, its handler run, and its answer written as its kind says. */
async function handleAndAnswer(
  route: RouteDefinition,
  options: RouteRouterOptions,
  request: Request,
  response: Response,
) {
  const params = route.params ? parseInput(route.params, request.params) : undefined;
  const query = route.query ? parseInput(route.query, queryParametersOf(request.originalUrl)) : undefined;
  const headers = route.headers && parseInput(route.headers, headersNamedIn(route.headers, request));
  const body = route.body ? parseInput(route.body, request.body) : undefined;
  const actor = options.authenticate === null ? OPEN_ACTOR : actorOf(response);
  const answer = await route.handle({ body, params, query, headers, actor, target: request.originalUrl });
  if (answer instanceof StreamedList) return writeStreamedList(response, route.status, answer.batches, answer.headers);
  if (answer instanceof NotModified) return response.set(answer.headers).status(304).end();
  if (answer instanceof MovedPermanently)
    return response.location(answer.location).status(301).json(success(answer.data));
  if (answer instanceof WrappedJsonBody)
    return response.set(answer.headers).status(route.status).type('json').send(answer.body);
  if (answer instanceof UnwrappedBody)
    return response.set(answer.headers).status(route.status).type(answer.contentType).send(answer.body);
  if (answer instanceof WithHeaders) response.set(answer.headers);
  sendJson(request, response, route.status, success(answer instanceof WithHeaders ? answer.data : answer));
}

/** The request headers a schema names, under the names it spells them with (HTTP names ignore case). */
function headersNamedIn(schema: z.ZodObject, request: Request): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, request.get(name)]));
}
