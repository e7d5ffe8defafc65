import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { needsCredential } from '../../../application';
import { type Actor, UnauthenticatedError } from '../../../domain';
import { HttpRequestError } from '../request-errors';
import type { FailedAuthentications } from './failed-authentications';

/**
 * Who a bearer token names (null: the request carried none): the actor itself when that needs no
 * storage, else a promise; a token that is not a valid key is refused with UnauthenticatedError.
 */
export type Authenticate = (token: string | null) => Actor | Promise<Actor>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authentication only: who asks goes to the route (actorOf), and what it may do is the use
 * case's to decide. A write without a credential, while keys or API_TOKEN exist, stops here
 * before its body is read. An Authorization header that is not a bearer token counts as a token
 * that is no key: the same look-up and the same 401. An address past its refused tokens gets a
 * 429 for any token it presents (a request without one is not concerned), before any look-up.
 * An actor known at once (a cached key) goes on in the same turn: no promise on the hot path.
 */
export function authenticated(
  authenticate: Authenticate,
  write: boolean,
  failures: FailedAuthentications,
): RequestHandler {
  return (request, response, next) => {
    const header = request.get('authorization');
    // The client's address is worked out only while some address may be limited.
    if (header !== undefined && failures.anyAddressLimited()) {
      const retryAfter = failures.retryAfterSeconds(addressOf(request));
      if (retryAfter > 0) {
        response.set('Retry-After', String(retryAfter));
        return next(
          new HttpRequestError(429, `Too many failed authentications from this address; retry after ${retryAfter} s`),
        );
      }
    }
    let answer: Actor | Promise<Actor>;
    try {
      answer = authenticate(header === undefined ? null : (BEARER.exec(header)?.[1] ?? ''));
    } catch (error) {
      return refuse(error, failures, request, next);
    }
    if (!isPromise(answer)) return proceed(answer, write, response, next);
    return answer.then(
      (actor) => proceed(actor, write, response, next),
      (error: unknown) => refuse(error, failures, request, next),
    );
  };
}

/** The actor `authenticated` found for this request. */
export function actorOf(response: Response): Actor {
  return response.locals.actor as Actor;
}

/** The route with its actor; a write without a credential stops here. */
function proceed(actor: Actor, write: boolean, response: Response, next: NextFunction): void {
  if (write && actor.kind === 'anonymous') {
    next(new UnauthenticatedError(needsCredential('This write')));
    return;
  }
  response.locals.actor = actor;
  next();
}

/** A refused token counts against its address (then a 429 for a while); any error goes on to the error handler. */
function refuse(error: unknown, failures: FailedAuthentications, request: Request, next: NextFunction): void {
  if (error instanceof UnauthenticatedError) failures.record(addressOf(request));
  next(error);
}

const addressOf = (request: Request) => request.ip ?? '';

/** An actor never has `then`: the check that tells the two answers of Authenticate apart. */
function isPromise(answer: Actor | Promise<Actor>): answer is Promise<Actor> {
  return 'then' in answer;
}
