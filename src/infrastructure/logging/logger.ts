import cluster from 'node:cluster';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout, one per event; level from LOG_LEVEL. `pretty` (LOG_FORMAT) is for
 * a developer's terminal: pino-pretty in a worker thread, colours and readable times.
 */
export function createLogger(
  level: string,
  format: 'json' | 'pretty' = 'json',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    // With WORKERS > 1, each line says which worker wrote it.
    base: { service: 'blog-article-api', ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}) },
    // Nothing logs headers, but a token must not leak even if someone adds them one day.
    redact: ['req.headers.authorization', 'headers.authorization'],
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
