import express, { type Express, type RequestHandler, Router } from 'express';
import { decoratedRouter } from '../user-demo/decorated-router';
import type { UserController } from '../user-demo/user-controller';
import { type ErrorLogger, errorHandler } from './error-mapping';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import { requireBearerToken } from './middleware/require-bearer-token';
import { routeNotFound } from './request-errors';
import { success } from './response';
import { type HttpControllers, type RouteDefinition, routeTable } from './routes';

export interface HttpAppOptions {
  apiToken: string | null;
  bodyLimitBytes: number;
  logger: ErrorLogger;
}

export interface HttpAppControllers extends HttpControllers {
  users: UserController;
}

/** The Express app, not listening: main.ts serves it, tests drive it with supertest. */
export function createHttpApp(controllers: HttpAppControllers, options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(decoratedRouter([controllers.users]));
  app.use(articleRouter(routeTable(controllers), options));
  app.use((request, _response, next) => next(routeNotFound(request.method, request.path)));
  app.use(errorHandler(options.logger));
  return app;
}

function articleRouter(routes: RouteDefinition[], options: HttpAppOptions): Router {
  const router = Router();
  const notFound: RequestHandler = (request, _response, next) => next(routeNotFound(request.method, request.path));
  for (const route of routes) {
    const guards: RequestHandler[] = [];
    // The token is checked before the body is read.
    if (route.write && options.apiToken !== null) guards.push(requireBearerToken(options.apiToken));
    if (route.body) guards.push(jsonBody(options.bodyLimitBytes));
    router[route.method](route.path, ...guards, async (request, response) => {
      const { status, data } = await route.handle(request);
      response.status(status).json(success(data));
    });
    // A known path asked with another method is a 404, like an unknown route.
    router.all(route.path, notFound);
  }
  return router;
}
