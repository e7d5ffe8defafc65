import type { Request, Response } from 'express';
import type { Level, Logger } from 'pino';

/**
 * The request's one JSON line, written by request-frame.ts when the answer is finished (or the
 * connection closed before): method, path (no query string), status, duration and request id; the error with
 * its cause for 5xx. No header and no body is logged, so no token or article text can reach
 * the logs.
 *
 * Written straight on the service's logger: no child logger per request (pino-http made two
 * per request even when the level then dropped the line), and nothing is built when the
 * line's level is off.
 */
export function logAnswer(logger: Logger, request: Request, response: Response, startedMs: number): void {
  const error = (response as Response & { err?: unknown }).err;
  const level = levelOf(response.statusCode, error);
  if (!logger.isLevelEnabled(level)) return;
  // originalUrl survives Express's rewriting of url inside mounted routers.
  const path = pathOf(request.originalUrl ?? request.url ?? '');
  const line: Record<string, unknown> = {
    requestId: request.id,
    method: request.method,
    path,
    status: response.statusCode,
    durationMs: Date.now() - startedMs,
  };
  // response.err also marks a failure after the status was sent (a streamed list cut midway).
  if (error !== undefined || response.statusCode >= 500)
    line.err = error ?? new Error(`failed with status code ${response.statusCode}`);
  logger[level](line, `${request.method} ${path} ${response.statusCode}`);
}

function levelOf(status: number, error: unknown): Level {
  if (status === 503) return 'warn';
  if (error !== undefined || status >= 500) return 'error';
  return 'info';
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
