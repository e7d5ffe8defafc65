import type { RequestHandler } from 'express';

/**
 * During shutdown every answer carries `Connection: close`, so clients open their next
 * request elsewhere instead of reusing a socket that is about to be closed under them.
 */
export function closeConnectionWhenStopping(isShuttingDown: () => boolean): RequestHandler {
  return (_request, response, next) => {
    if (isShuttingDown()) response.set('Connection', 'close');
    next();
  };
}
