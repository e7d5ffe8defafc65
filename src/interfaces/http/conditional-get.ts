import type { Express } from 'express';

/**
 * Turns off the 304 Express's `res.send` answers by itself from `req.fresh`. The `fresh` package
 * behind it calls every request with `Cache-Control: no-cache` stale, so Node's fetch, which adds
 * it to a request with a manual If-None-Match (as browsers do with `cache: 'no-store'` or
 * `'reload'`), never got a 304; and it takes
 * `If-None-Match: *` as a match on any route, with or without an ETag. RFC 9110 §13.2.1 has the
 * origin evaluate the condition whatever Cache-Control says: the controllers do, with
 * ifNoneMatchNames (entity-tag.ts).
 */
export function withoutExpressFreshness(app: Express): void {
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
}
