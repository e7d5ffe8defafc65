import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout, one per event; level from LOG_LEVEL. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'blog-article-api' } });
}
