import type { ErrorRequestHandler } from 'express';
import {
  ArticleChangedError,
  ArticleNotFoundError,
  ForbiddenError,
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  KeyNotFoundError,
  RevisionNotFoundError,
  SlugNotFoundError,
  SlugTakenError,
  StorageUnavailableError,
  UnauthenticatedError,
  UnknownReferenceError,
  ValidationError,
  WebhookNotFoundError,
} from '../../domain';
import { HttpRequestError } from './request-errors';
import { failure } from './response';

/** A failover takes seconds; a client retrying after one finds the new primary soon after it takes writes. */
export const RETRY_AFTER_SECONDS = 1;

type ErrorClass = abstract new (...args: never[]) => Error;

/** The one place where errors become HTTP statuses. The first matching row wins. */
const ERROR_STATUS: ReadonlyArray<readonly [ErrorClass, number]> = [
  [ValidationError, 400],
  [UnknownReferenceError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [ArticleNotFoundError, 404],
  [KeyNotFoundError, 404],
  [WebhookNotFoundError, 404],
  [SlugNotFoundError, 404],
  [RevisionNotFoundError, 404],
  [SlugTakenError, 409],
  [ArticleChangedError, 412],
  [IdempotencyKeyInProgressError, 409],
  [IdempotencyKeyReusedError, 422],
  [StorageUnavailableError, 503],
];

export function toHttpError(error: unknown): { status: number; message: string } {
  if (error instanceof HttpRequestError) return { status: error.status, message: error.message };
  for (const [type, status] of ERROR_STATUS) {
    if (error instanceof type) return { status, message: error.message };
  }
  return clientErrorRaisedByExpress(error) ?? { status: 500, message: 'Internal error' };
}

/**
 * Client errors that Express raises before any handler of ours runs, marked with a 4xx
 * `status`: the router's URIError for a path parameter that is not valid percent-encoded
 * UTF-8 (`/article/%`), and body-parser's http-errors (`expose: true`) for a gzip, deflate or
 * brotli body that does not inflate. Their own messages echo input or zlib internals, so the
 * answer says what is wrong in its own words.
 */
function clientErrorRaisedByExpress(error: unknown): { status: number; message: string } | null {
  const { expose, status, code } = (error ?? {}) as { expose?: unknown; status?: unknown; code?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (error instanceof URIError) return { status, message: 'path: is not valid percent-encoded UTF-8' };
  if (expose !== true) return null;
  if (typeof code === 'string' && /^(Z_|ERR__ERROR_)/.test(code)) {
    return { status, message: 'body: is not valid data for its Content-Encoding' };
  }
  return { status, message: 'request: could not be read' };
}

/**
 * Answers every error in the wrapper. The unexpected and the unavailable are handed to the
 * request's log line (request-logging.ts reads `response.err`), so each is logged once, with its cause.
 */
export function errorHandler(): ErrorRequestHandler {
  return (error, _request, response, next) => {
    if (response.headersSent) return next(error);
    const { status, message } = toHttpError(error);
    if (status >= 500) (response as { err?: unknown }).err = error;
    // Unavailable for now (storage gone, a failover under way, shutting down): when to ask again.
    if (status === 503) response.set('Retry-After', String(RETRY_AFTER_SECONDS));
    if (status === 401) response.set('WWW-Authenticate', 'Bearer');
    response.status(status).json(failure(message));
  };
}
