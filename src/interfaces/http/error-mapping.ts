import type { ErrorRequestHandler } from 'express';
import { ArticleNotFoundError, StorageUnavailableError, UnknownReferenceError, ValidationError } from '../../domain';
import { HttpRequestError } from './request-errors';
import { failure } from './response';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The one place where errors become HTTP statuses. The first matching row wins. */
const ERROR_STATUS: ReadonlyArray<readonly [ErrorClass, number]> = [
  [ValidationError, 400],
  [UnknownReferenceError, 400],
  [ArticleNotFoundError, 404],
  [StorageUnavailableError, 503],
];

export function toHttpError(error: unknown): { status: number; message: string } {
  if (error instanceof HttpRequestError) return { status: error.status, message: error.message };
  for (const [type, status] of ERROR_STATUS) {
    if (error instanceof type) return { status, message: error.message };
  }
  return { status: 500, message: 'Internal error' };
}

/**
 * Answers every error in the wrapper. The unexpected and the unavailable are handed to the
 * request's log line (pino-http reads `response.err`), so each is logged once, with its cause.
 */
export function errorHandler(): ErrorRequestHandler {
  return (error, _request, response, next) => {
    if (response.headersSent) return next(error);
    const { status, message } = toHttpError(error);
    if (status === 500 || (status === 503 && !(error instanceof HttpRequestError))) {
      (response as { err?: unknown }).err = error;
    }
    response.status(status).json(failure(message));
  };
}
