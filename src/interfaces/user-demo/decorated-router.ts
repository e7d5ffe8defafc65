import type { RequestHandler } from 'express';
import { ROUTE_LABEL } from '../http/middleware/http-metrics';
import { readRoutes } from './route-decorators';

/**
 * Serves a request only when its method and whole URL (query string included) equal a
 * recorded route; anything else goes on to the rest of the app, which answers 404.
 */
export function decoratedRouter(controllers: readonly object[]): RequestHandler {
  const table = new Map<string, () => unknown>();
  for (const controller of controllers) {
    for (const route of readRoutes(controller)) table.set(`${route.method} ${route.url}`, route.handle);
  }
  return (request, response, next) => {
    const handle = table.get(`${request.method} ${request.originalUrl}`);
    if (!handle) return next();
    response.locals[ROUTE_LABEL] = request.path;
    response.status(200).json(handle());
  };
}
