import type { Express, RequestHandler, Router } from 'express';

/**
 * Paths match exactly as documented: `/Article` and `/article/` are not `/article`, they are
 * unknown routes (404). Express ignores case and a trailing slash unless told otherwise, and is
 * told per app; the route tables match their own paths exactly (route-paths.ts).
 */
const EXACT_MATCHING = { caseSensitive: true, strict: true } as const;

/** For the app's own routes (`app.get`); set before the first route or middleware is added. */
export function matchPathsExactly(app: Express): void {
  app.set('case sensitive routing', EXACT_MATCHING.caseSensitive);
  app.set('strict routing', EXACT_MATCHING.strict);
}

/**
 * Hands `router` only the requests whose path `accepts` takes; the others go on to the rest of
 * the app without entering it (a nested router walks its layers again for every request). For a
 * router built elsewhere with Express's loose matching. Its layers stay visible as `stack` to
 * whoever walks the app's stack (the OpenAPI test does).
 */
export function onlyForPaths(
  accepts: (path: string) => boolean,
  router: Router,
): RequestHandler & Pick<Router, 'stack'> {
  const guarded: RequestHandler = (request, response, next) =>
    accepts(request.path) ? router(request, response, next) : next();
  return Object.assign(guarded, { stack: router.stack });
}
