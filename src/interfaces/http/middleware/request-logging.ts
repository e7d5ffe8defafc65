import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

type Request = IncomingMessage & { id?: unknown; path?: string };

/**
 * One JSON line per request, written when the answer is finished: method, path (no query
 * string), status, duration and request id; the error with its cause for 5xx. No header and
 * no body is logged, so no token or article text can reach the logs.
 */
export function requestLogging(logger: Logger) {
  return pinoHttp<Request, ServerResponse>({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: (_request, response, error) => {
      if (response.statusCode === 503) return 'warn';
      // response.err: a failure after the status was sent (a streamed list cut midway).
      if (error || (response as { err?: unknown }).err || response.statusCode >= 500) return 'error';
      return 'info';
    },
    customSuccessObject: (request, response, logged: { responseTime: number }) => line(request, response, logged),
    customErrorObject: (request, response, error, logged: { responseTime: number }) => ({
      ...line(request, response, logged),
      err: error,
    }),
    customSuccessMessage: (request, response) => `${request.method} ${pathOf(request)} ${response.statusCode}`,
    customErrorMessage: (request, response) => `${request.method} ${pathOf(request)} ${response.statusCode}`,
  });
}

function line(request: Request, response: ServerResponse, logged: { responseTime: number }) {
  return {
    method: request.method,
    path: pathOf(request),
    status: response.statusCode,
    durationMs: logged.responseTime,
  };
}

function pathOf(request: Request): string {
  // originalUrl survives Express's rewriting of url inside mounted routers.
  const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '';
  return url.split('?')[0] ?? '';
}
