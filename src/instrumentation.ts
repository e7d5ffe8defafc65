import { ConfigError } from './infrastructure/config/config';
import { loadTracingConfig } from './infrastructure/config/tracing-environment';
import type { Tracing } from './infrastructure/observability/tracing';

type TracingModule = typeof import('./infrastructure/observability/tracing');

/**
 * Tracing, started when this module is first loaded: main.ts imports it before anything that
 * loads node:http (Express), which the http instrumentation must patch first. Null when no
 * OTLP endpoint is set (or OTEL_SDK_DISABLED / OTEL_TRACES_EXPORTER=none): then the SDK is not
 * even loaded, and no context manager, patch or wrapper is installed.
 */
export const startedTracing: Tracing | null = startTracingOrExit();

function startTracingOrExit(): Tracing | null {
  try {
    const config = loadTracingConfig(process.env);
    if (!config) return null;
    // Loaded only now, synchronously (Express must not load first): with tracing off, none of
    // the SDK's modules is read, compiled or kept in memory.
    const { startTracing } = require('./infrastructure/observability/tracing') as TracingModule;
    return startTracing(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}
