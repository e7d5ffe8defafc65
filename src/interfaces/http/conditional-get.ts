import type { Express, Request } from 'express';
import { ifNoneMatchNames } from './entity-tag';

/**
 * Turns off the 304 Express's `res.send` answers by itself from `req.fresh`. The `fresh` package
 * behind it calls every request with `Cache-Control: no-cache` stale, so Node's fetch, which adds
 * it to a request with a manual If-None-Match (as browsers do with `cache: 'no-store'` or
 * `'reload'`), never got a 304; and it takes
 * `If-None-Match: *` as a match on any route, with or without an ETag. RFC 9110 §13.2.1 has the
 * origin evaluate the condition whatever Cache-Control says: the route router does, with
 * isNotModified.
 */
export function withoutExpressFreshness(app: Express): void {
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
}

/**
 * Whether a GET's If-None-Match names the answer's current ETag, so that the client's copy is
 * current and the answer is a 304 without a body (RFC 9110 §13.1.2, §15.4.5).
 */
export function isNotModified(request: Request, answerHeaders: Readonly<Record<string, string>>): boolean {
  return ifNoneMatchNames(request.get('If-None-Match'), answerHeaders.ETag);
}
