import cors from 'cors';
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { HttpRequestError } from '../request-errors';

/**
 * Helmet's headers, with a Content-Security-Policy the docs page lives with: its scripts and
 * styles come from this origin ('self'), Swagger UI sets inline styles and data: images.
 * No upgrade-insecure-requests: the service is often reached over plain HTTP behind a proxy.
 */
function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
  });
}

/**
 * The headers `securityHeaders` sets, worked out once: they depend on no request, so every answer
 * sets them from this list (request-frame.ts) instead of running helmet's chain of middleware.
 */
export function securityHeaderList(): ReadonlyArray<readonly [string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let failure: unknown;
  securityHeaders()({} as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure !== undefined || headers.length === 0) throw new Error('helmet set no headers', { cause: failure });
  return headers;
}

/** CORS for the configured origins only; preflight answers name what a client may send. */
export function corsFor(origin: '*' | readonly string[]): RequestHandler {
  return cors({
    origin: origin === '*' ? '*' : [...origin],
    methods: ['GET', 'POST'],
    // The conditional requests' headers too: a browser client revalidates and writes only if unchanged.
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id', 'Idempotency-Key', 'If-Match', 'If-None-Match'],
    exposedHeaders: [
      'X-Request-Id',
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'Idempotent-Replayed',
      'ETag',
      'Link',
      'Location',
    ],
    maxAge: 600,
  });
}

/** A fixed one-minute window per client IP; the 429 is an error in the wrapper like any other. */
export function rateLimitPerMinute(limit: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_request, response, next) =>
      next(
        new HttpRequestError(
          429,
          `Too many requests: at most ${limit} a minute; retry after ${response.get('Retry-After') ?? 60} s`,
        ),
      ),
  });
}
