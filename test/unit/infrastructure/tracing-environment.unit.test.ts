import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../../src/infrastructure/config/config';
import {
  loadTracingConfig,
  READ_BY_THE_LIBRARIES,
  TRACING_ENVIRONMENT,
} from '../../../src/infrastructure/config/tracing-environment';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadTracingConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, but the tracing configuration loaded');
}

describe('loadTracingConfig', () => {
  it('leaves tracing off when no OTLP endpoint is set, or an empty one', () => {
    expect(loadTracingConfig({})).toBeNull();
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'x' })).toBeNull();
  });

  it('turns tracing on with either endpoint variable, with the specification defaults', () => {
    const defaults = {
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      batch: { scheduledDelayMillis: 5_000, exportTimeoutMillis: 30_000, maxQueueSize: 2_048, maxExportBatchSize: 512 },
    };
    expect(loadTracingConfig(ENDPOINT)).toEqual(defaults);
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces' })).toEqual(defaults);
  });

  it('leaves tracing off when disabled or the exporter is none, even with an endpoint', () => {
    expect(loadTracingConfig({ ...ENDPOINT, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(loadTracingConfig({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  });

  it('reads the sampler and the batch settings', () => {
    expect(
      loadTracingConfig({
        ...ENDPOINT,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
      }),
    ).toMatchObject({
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      batch: { scheduledDelayMillis: 200, maxQueueSize: 100, maxExportBatchSize: 50 },
    });
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use http/protobuf',
    ],
    [
      { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' },
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" is not supported',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" is not an http://',
    ],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER: expected one of always_on'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG: "1.5" is not a ratio from 0 to 1'],
    [{ OTEL_BSP_MAX_QUEUE_SIZE: '0' }, 'OTEL_BSP_MAX_QUEUE_SIZE: "0" is not a whole number from 1'],
    [
      { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4096' },
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must not exceed OTEL_BSP_MAX_QUEUE_SIZE',
    ],
    [{ OTEL_SDK_DISABLED: 'yes' }, 'OTEL_SDK_DISABLED: expected true or false'],
  ])('refuses %j in one line naming the variable', (env, message) => {
    expect(configErrorOf({ ...ENDPOINT, ...env }).message).toContain(message);
  });
});

describe('the tracing table of docs/OPERATIONS.md', () => {
  const operations = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'OPERATIONS.md'), 'utf8');
  const section = /^## Tracing\n([\s\S]*?)(?=^## )/m.exec(operations)?.[1] ?? '';
  const documented = [...section.matchAll(/^\|\s*`(OTEL_[A-Z0-9_]+)`\s*\|/gm)].map((row) => row[1] as string);
  const known = [...Object.keys(TRACING_ENVIRONMENT.shape), ...READ_BY_THE_LIBRARIES];

  it('documents every OTEL_ variable the service or its libraries read, each once', () => {
    expect(known.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !known.includes(name))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });
});
