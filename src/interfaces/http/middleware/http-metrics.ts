import type { Request, RequestHandler, Response } from 'express';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Process metrics (CPU, memory, event loop, GC) are the process's: registered once. */
let processMetrics: Registry | undefined;
function processMetricsRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/** Where handlers that are not Express routes (the docs assets, the demo routes) name their route. */
export const ROUTE_LABEL = 'metricsRoute';

export interface HttpMetrics {
  /** Counts and times a finished answer by method, route pattern and status (request-frame.ts). */
  observe(request: Request, response: Response, startedNs: bigint): void;
  /** Serves the Prometheus text format. */
  endpoint: RequestHandler;
}

/** `extra`: registries of other layers (the storage's replica metrics) served beside these. */
export function httpMetrics(extra: readonly Registry[] = []): HttpMetrics {
  // Now, not at the first scrape: the CPU counters count from when they are registered.
  const processRegistry = processMetricsRegistry();
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by method, route pattern and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const observe = (request: Request, response: Response, startedNs: bigint) => {
    const labels = {
      method: request.method,
      // The pattern, never the raw path: /article/:id is one series, and unknown paths one more.
      route: request.route?.path ?? response.locals[ROUTE_LABEL] ?? 'unmatched',
      status_code: String(response.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, Number(process.hrtime.bigint() - startedNs) / 1e9);
  };

  const endpoint: RequestHandler = async (_request, response) => {
    const merged = Registry.merge([processRegistry, registry, ...extra]);
    response.set('Content-Type', merged.contentType).send(await merged.metrics());
  };

  return { observe, endpoint };
}
