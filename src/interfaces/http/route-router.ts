import { type RequestHandler, Router } from 'express';
import { jsonBody } from './middleware/json-body';
import { requireBearerToken } from './middleware/require-bearer-token';
import { routeNotFound } from './request-errors';
import { success } from './response';
import type { RouteDefinition } from './route-definition';
import { parseInput } from './validation/article-schemas';

export interface RouteRouterOptions {
  apiToken: string | null;
  bodyLimitBytes: number;
}

/** Serves a route table: token, then body, then schemas, then the handler; answers wrapped. */
export function routeRouter(routes: readonly RouteDefinition[], options: RouteRouterOptions): Router {
  const router = Router();
  const notFound: RequestHandler = (request, _response, next) => next(routeNotFound(request.method, request.path));
  for (const route of routes) {
    const guards: RequestHandler[] = [];
    // The token is checked before the body is read.
    if (route.write && options.apiToken !== null) guards.push(requireBearerToken(options.apiToken));
    if (route.body) guards.push(jsonBody(options.bodyLimitBytes));
    router[route.method](route.path, ...guards, async (request, response) => {
      const params = route.params ? parseInput(route.params, request.params) : undefined;
      const body = route.body ? parseInput(route.body, request.body) : undefined;
      const data = await route.handle({ body, params });
      response.status(route.status).json(success(data));
    });
    // A known path asked with another method is a 404, like an unknown route.
    router.all(route.path, notFound);
  }
  return router;
}
