import os from 'node:os';
import path from 'node:path';
import bytes from 'bytes';

export type DatabaseConfig =
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'memory' };

export interface AppConfig {
  readonly port: number;
  readonly database: DatabaseConfig;
  /** null: writes are open. */
  readonly apiToken: string | null;
  readonly bodyLimitBytes: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
  /** null: no CORS headers; '*': any origin; else the allowed origins. */
  readonly corsOrigin: '*' | readonly string[] | null;
  /** Requests per client IP and minute on the API routes; null: no limit. */
  readonly rateLimitPerMinute: number | null;
  /** Proxy hops in front of the service whose X-Forwarded-For is trusted (0: none). */
  readonly trustProxyHops: number;
  /** Whether GET /seed/create is served. */
  readonly seedEnabled: boolean;
  /** How long after SIGTERM the service keeps accepting connections while /ready says 503. */
  readonly shutdownDrainMs: number;
  /** The whole shutdown, drain included, is bounded by this. */
  readonly shutdownTimeoutMs: number;
  /** Server processes sharing the port (node:cluster); 1: no cluster. */
  readonly workers: number;
}

export const DEFAULT_SQLITE_PATH = path.join('data', 'blog.sqlite');

/** A variable that cannot be used; the message is one line that names it. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env): AppConfig {
  const shutdownTimeoutMs = parseInteger('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 1, 600_000);
  const shutdownDrainMs = parseInteger('SHUTDOWN_DRAIN_MS', env.SHUTDOWN_DRAIN_MS, 1_000, 0, 600_000);
  if (shutdownDrainMs >= shutdownTimeoutMs) {
    throw new ConfigError('SHUTDOWN_DRAIN_MS', `must be shorter than SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs})`);
  }
  const database = parseDatabaseUrl(env.DATABASE_URL);
  const workers = parseWorkers(env.WORKERS);
  if (workers > 1 && database.kind === 'memory') {
    throw new ConfigError('WORKERS', 'each worker would have its own in-memory store; use SQLite or PostgreSQL');
  }
  return {
    port: parsePort(env.PORT),
    database,
    // An empty API_TOKEN counts as unset, so `API_TOKEN=` in an env file does not lock writes.
    apiToken: env.API_TOKEN ? env.API_TOKEN : null,
    bodyLimitBytes: parseBodyLimit(env.BODY_LIMIT),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    logFormat: parseChoice('LOG_FORMAT', env.LOG_FORMAT, ['json', 'pretty'] as const, 'json'),
    corsOrigin: parseCorsOrigin(env.CORS_ORIGIN),
    // 0 means off, like unset: a limit of zero requests would be an outage, not a limit.
    rateLimitPerMinute: parseInteger('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 0, 0, 1_000_000) || null,
    trustProxyHops: parseInteger('TRUST_PROXY', env.TRUST_PROXY, 0, 0, 10),
    seedEnabled: parseChoice('SEED_ENABLED', env.SEED_ENABLED, ['true', 'false'] as const, 'true') === 'true',
    shutdownDrainMs,
    shutdownTimeoutMs,
    workers,
  };
}

function parseWorkers(raw: string | undefined): number {
  // auto: one worker per core the process may use.
  if (raw === 'auto') return os.availableParallelism();
  return parseInteger('WORKERS', raw, 1, 1, 64);
}

function parseInteger(variable: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new ConfigError(variable, `"${raw}" is not a whole number from ${min} to ${max}`);
  return value;
}

function parseChoice<const T extends string>(
  variable: string,
  raw: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (raw === undefined || raw === '') return fallback;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined) throw new ConfigError(variable, `expected one of ${choices.join(', ')}`);
  return choice;
}

function parseCorsOrigin(raw: string | undefined): AppConfig['corsOrigin'] {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.trim() === '*') return '*';
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    // An origin is scheme://host[:port], exactly what a browser sends in the Origin header.
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError('CORS_ORIGIN', `"${origin}" is not an origin such as https://app.example.com (or use *)`);
    }
    return origin;
  });
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new ConfigError('PORT', `"${raw}" is not a port number (0-65535)`);
  return port;
}

export function parseDatabaseUrl(raw: string | undefined): DatabaseConfig {
  if (raw === undefined || raw === '') return { kind: 'sqlite', path: DEFAULT_SQLITE_PATH };
  if (raw === 'memory:') return { kind: 'memory' };
  const sqlite = /^(?:sqlite|file):(.*)$/.exec(raw);
  if (sqlite) {
    // sqlite:data/x.db, sqlite:/abs/x.db and sqlite:///abs/x.db all name a file.
    const path = (sqlite[1] ?? '').replace(/^\/\//, '');
    if (path !== '') return { kind: 'sqlite', path };
    throw new ConfigError('DATABASE_URL', `"${raw}" names no SQLite file (e.g. sqlite:data/blog.sqlite)`);
  }
  if (/^postgres(?:ql)?:\/\//.test(raw) && URL.canParse(raw) && new URL(raw).hostname !== '') {
    return { kind: 'postgres', url: raw };
  }
  throw new ConfigError('DATABASE_URL', 'expected postgres://…, sqlite:<path>, file:<path> or memory:');
}

const BODY_SIZE = /^\d+(?:\.\d+)?\s*(?:b|kb|mb|gb)?$/i;

function parseBodyLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1_048_576;
  // bytes.parse alone would read "1m" or "10 apples" as their leading digits.
  const limit = BODY_SIZE.test(raw) ? bytes.parse(raw) : null;
  if (limit === null || !Number.isFinite(limit) || limit <= 0) {
    throw new ConfigError('BODY_LIMIT', `"${raw}" is not a size such as 1mb or 512kb`);
  }
  return limit;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseLogLevel(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'info';
  if (!LOG_LEVELS.includes(raw)) throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}`);
  return raw;
}

/** The database as the start-up log line shows it: never a password. */
export function describeDatabase(database: DatabaseConfig): string {
  switch (database.kind) {
    case 'memory':
      return 'in-memory store (data is lost at exit)';
    case 'sqlite':
      return `SQLite file ${database.path}`;
    case 'postgres': {
      const url = new URL(database.url);
      return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
    }
  }
}
