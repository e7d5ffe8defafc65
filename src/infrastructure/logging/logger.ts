import cluster from 'node:cluster';
import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /**
   * Whether each line written inside a traced request carries its `trace_id` and `span_id`
   * (the names of OpenTelemetry's log data model). Only when tracing is on: otherwise there
   * is no trace to name, and no line pays for looking.
   */
  traceIds?: boolean;
}

/**
 * JSON lines on stdout, one per event; level from LOG_LEVEL. `pretty` (LOG_FORMAT) is for
 * a developer's terminal: pino-pretty in a worker thread, colours and readable times.
 */
export function createLogger(
  level: string,
  format: 'json' | 'pretty' = 'json',
  destination?: pino.DestinationStream,
  { traceIds = false }: LoggerOptions = {},
): Logger {
  const options: pino.LoggerOptions = {
    level,
    // With WORKERS > 1, each line says which worker wrote it.
    base: { service: 'blog-article-api', ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}) },
    // Nothing logs headers, but a token must not leak even if someone adds them one day.
    redact: ['req.headers.authorization', 'headers.authorization'],
    ...(traceIds && { mixin: traceFields }),
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

const NO_FIELDS = {};

/** The active span's ids, read from the context the line is written in. */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return NO_FIELDS;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
