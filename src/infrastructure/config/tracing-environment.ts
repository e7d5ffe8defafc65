import { z } from 'zod';
import { ConfigError } from './config';

/**
 * The standard OpenTelemetry variables the service's tracing set-up reads itself, in one zod
 * schema, apart from the service's own (environment.ts): they are the SDK's names and meanings,
 * documented in docs/OPERATIONS.md's "Tracing" table (a unit test compares both ways). The OTLP
 * exporter reads its own (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, …) and the resource detector
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES; that table lists those too.
 */

const trueOrFalse = z
  .enum(['true', 'false'], { error: () => 'expected true or false' })
  .transform((raw) => raw === 'true');

const httpUrl = z.string().refine((raw) => URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol), {
  error: (issue) => `"${String(issue.input)}" is not an http:// or https:// URL`,
});

// Only OTLP over HTTP with protobuf bodies, the specification's default: every collector takes it.
const protocol = z.enum(['http/protobuf'], {
  error: (issue) => `"${String(issue.input)}" is not supported; use http/protobuf (OTLP over HTTP)`,
});

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const ratio = z.string().refine((raw) => /^\d+(?:\.\d+)?$/.test(raw) && Number(raw) <= 1, {
  error: (issue) => `"${String(issue.input)}" is not a ratio from 0 to 1`,
});

const milliseconds = z.string().refine((raw) => /^\d{1,9}$/.test(raw), {
  error: (issue) => `"${String(issue.input)}" is not a whole number of milliseconds`,
});

const count = z.string().refine((raw) => /^\d{1,9}$/.test(raw) && Number(raw) >= 1, {
  error: (issue) => `"${String(issue.input)}" is not a whole number from 1`,
});

export const TRACING_ENVIRONMENT = z.object({
  OTEL_SDK_DISABLED: trueOrFalse.default(false),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none'], { error: () => 'expected otlp or none' }).default('otlp'),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol.optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(SAMPLERS, { error: () => `expected one of ${SAMPLERS.join(', ')}` })
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: ratio.transform(Number).default(1),
  OTEL_BSP_SCHEDULE_DELAY: milliseconds.transform(Number).default(5_000),
  OTEL_BSP_EXPORT_TIMEOUT: milliseconds.transform(Number).default(30_000),
  OTEL_BSP_MAX_QUEUE_SIZE: count.transform(Number).default(2_048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: count.transform(Number).default(512),
});

/**
 * The standard variables read by the libraries themselves when tracing is on: the OTLP exporter
 * (each also as OTEL_EXPORTER_OTLP_TRACES_…) and the resource detector. Listed for docs/OPERATIONS.md's table.
 */
export const READ_BY_THE_LIBRARIES = [
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_COMPRESSION',
  'OTEL_EXPORTER_OTLP_CERTIFICATE',
  'OTEL_EXPORTER_OTLP_CLIENT_KEY',
  'OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
] as const;

export type Sampling = (typeof SAMPLERS)[number];

/** What the tracing set-up needs; null when traces are off (no endpoint, disabled, or exporter none). */
export interface TracingConfig {
  readonly sampler: Sampling;
  readonly samplerRatio: number;
  readonly batch: {
    readonly scheduledDelayMillis: number;
    readonly exportTimeoutMillis: number;
    readonly maxQueueSize: number;
    readonly maxExportBatchSize: number;
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads the OTEL_* variables; an empty one counts as unset. Throws ConfigError naming a bad one. */
export function loadTracingConfig(env: Env): TracingConfig | null {
  const set = Object.fromEntries(
    Object.keys(TRACING_ENVIRONMENT.shape)
      .map((name) => [name, env[name]?.trim()])
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = TRACING_ENVIRONMENT.safeParse(set);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ConfigError(String(issue?.path[0] ?? 'OTEL_*'), issue?.message ?? 'invalid');
  }
  const v = parsed.data;
  const endpoint = v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? v.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (v.OTEL_SDK_DISABLED || v.OTEL_TRACES_EXPORTER === 'none' || endpoint === undefined) return null;
  if (v.OTEL_BSP_MAX_EXPORT_BATCH_SIZE > v.OTEL_BSP_MAX_QUEUE_SIZE) {
    throw new ConfigError(
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
      `must not exceed OTEL_BSP_MAX_QUEUE_SIZE (${v.OTEL_BSP_MAX_QUEUE_SIZE})`,
    );
  }
  return {
    sampler: v.OTEL_TRACES_SAMPLER,
    samplerRatio: v.OTEL_TRACES_SAMPLER_ARG,
    batch: {
      scheduledDelayMillis: v.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMillis: v.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: v.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: v.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    },
  };
}
