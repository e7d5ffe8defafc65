import { ConfigError } from './infrastructure/config/config';
import { loadTracingConfig } from './infrastructure/config/tracing-environment';
import { startTracing, type Tracing } from './infrastructure/observability/tracing';

/**
 * Tracing, started when this module is first loaded: main.ts imports it before anything that
 * loads node:http (Express), which the http instrumentation must patch first. Null when no
 * OTLP endpoint is set (or OTEL_SDK_DISABLED / OTEL_TRACES_EXPORTER=none): then no SDK, no
 * context manager and no patch is installed, and the service runs exactly as without tracing.
 */
export const startedTracing: Tracing | null = startTracingOrExit();

function startTracingOrExit(): Tracing | null {
  try {
    const config = loadTracingConfig(process.env);
    return config && startTracing(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}
