import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { HttpMetrics } from './http-metrics';
import { requestIdOf } from './request-id';
import { logAnswer } from './request-logging';
import { securityHeaderList } from './security';

export interface RequestFrameOptions {
  logger: Logger;
  metrics: HttpMetrics;
  /** True once shutdown has begun: answers then carry `Connection: close`. */
  isShuttingDown: () => boolean;
}

/**
 * What every request gets, in one function rather than a chain of middleware: its id (echoed in
 * X-Request-Id), the security headers, `Connection: close` during shutdown (so that clients open
 * their next request elsewhere instead of reusing a socket about to close), and once the answer
 * is done its log line and, when it finished, its count and duration.
 */
export function requestFrame({ logger, metrics, isShuttingDown }: RequestFrameOptions): RequestHandler {
  const securityHeaders = securityHeaderList();
  return (request, response, next) => {
    const startedMs = Date.now();
    const startedNs = process.hrtime.bigint();
    request.id = requestIdOf(request);
    response.setHeader('X-Request-Id', request.id);
    for (const [name, value] of securityHeaders) response.setHeader(name, value);
    if (isShuttingDown()) response.setHeader('Connection', 'close');
    response.once('close', () => {
      if (response.writableFinished) metrics.observe(request, response, startedNs);
      logAnswer(logger, request, response, startedMs);
    });
    next();
  };
}
