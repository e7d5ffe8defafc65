import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, type Span, type Tracer, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_HTTP_ROUTE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Sampling, TracingConfig } from '../config/tracing-environment';

export const SERVICE_NAME = 'blog-article-api';

/** Probes and scrapes come every few seconds from machines, not users: they are not traced. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

/** Tracing once started: the tracer that makes the use-case and SQL spans, and the final flush. */
export interface Tracing {
  readonly tracer: Tracer;
  /** Exports the spans still queued, then stops; called once, before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK: W3C trace context in and out, a span per HTTP request (the
 * http instrumentation, which must patch node:http before Express loads it: see
 * src/instrumentation.ts), batches exported over OTLP/HTTP to the endpoint of the standard
 * variables, which the exporter reads itself.
 */
export function startTracing(config: TracingConfig): Tracing {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const provider = new TracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by envDetector) win over the defaults.
    resource: defaultResource()
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME }))
      .merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerOf(config.sampler, config.samplerRatio),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...config.batch })],
  });
  trace.setGlobalTracerProvider(provider);
  // Enabled as it is built, on the global provider just set. Outgoing requests are not traced:
  // the service makes none but the exporter's own.
  new HttpInstrumentation({
    disableOutgoingRequestInstrumentation: true,
    ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request.url ?? '')),
    applyCustomAttributesOnSpan: nameAfterRoute,
  });
  return {
    tracer: trace.getTracer(SERVICE_NAME),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * `POST /article/create` rather than `POST`: the route pattern Express matched (never the raw
 * path, which holds ids), or the one a handler outside the route tables named (http-metrics.ts).
 */
function nameAfterRoute(span: Span, request: IncomingMessage | object, response: ServerResponse | object): void {
  const route =
    (request as { route?: { path?: unknown } }).route?.path ??
    (response as { locals?: Record<string, unknown> }).locals?.metricsRoute;
  if (typeof route !== 'string') return;
  span.setAttribute(ATTR_HTTP_ROUTE, route);
  span.updateName(`${(request as IncomingMessage).method ?? 'GET'} ${route}`);
}

function samplerOf(sampling: Sampling, ratio: number): Sampler {
  switch (sampling) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
