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

export interface ErrorLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export function toHttpError(error: unknown): { status: number; message: string } {
  if (error instanceof HttpRequestError) return { status: error.status, message: error.message };
  for (const [type, status] of ERROR_STATUS) {
    if (error instanceof type) return { status, message: error.message };
  }
  return { status: 500, message: 'Internal error' };
}

/** Answers every error in the wrapper; only the unexpected and the unavailable are logged. */
export function errorHandler(logger: ErrorLogger): ErrorRequestHandler {
  return (error, request, response, next) => {
    if (response.headersSent) return next(error);
    const { status, message } = toHttpError(error);
    if (status === 500) logger.error({ err: error, requestId: request.id }, 'unexpected error');
    if (status === 503) logger.warn({ err: error, requestId: request.id }, 'storage unavailable');
    response.status(status).json(failure(message));
  };
}
