import type { RequestHandler, Response } from 'express';
import { type Actor, UnauthenticatedError } from '../../../domain';
import { HttpRequestError } from '../request-errors';
import type { FailedAuthentications } from './failed-authentications';

/** Who a bearer token names (null: the request carried none); throws UnauthenticatedError. */
export type Authenticate = (token: string | null) => Promise<Actor>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authentication only: who asks goes to the route (actorOf), and what it may do is the use
 * case's to decide. A write without a credential, while keys or API_TOKEN exist, stops here
 * before its body is read. An Authorization header that is not a bearer token counts as a token
 * that is no key: the same look-up and the same 401. An address past its refused tokens gets a
 * 429 for any token it presents (a request without one is not concerned), before any look-up.
 */
export function authenticated(
  authenticate: Authenticate,
  write: boolean,
  failures: FailedAuthentications,
): RequestHandler {
  return async (request, response, next) => {
    const header = request.get('authorization');
    const address = request.ip ?? '';
    if (header !== undefined) {
      const retryAfter = failures.retryAfterSeconds(address);
      if (retryAfter > 0) {
        response.set('Retry-After', String(retryAfter));
        return next(
          new HttpRequestError(429, `Too many failed authentications from this address; retry after ${retryAfter} s`),
        );
      }
    }
    let actor: Actor;
    try {
      actor = await authenticate(header === undefined ? null : (BEARER.exec(header)?.[1] ?? ''));
    } catch (error) {
      if (error instanceof UnauthenticatedError) failures.record(address);
      return next(error);
    }
    if (write && actor.kind === 'anonymous') {
      return next(new UnauthenticatedError('This write needs the header Authorization: Bearer <key or API token>'));
    }
    response.locals.actor = actor;
    next();
  };
}

/** The actor `authenticated` found for this request. */
export function actorOf(response: Response): Actor {
  return response.locals.actor as Actor;
}
