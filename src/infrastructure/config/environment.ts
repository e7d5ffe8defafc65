import os from 'node:os';
import path from 'node:path';
import bytes from 'bytes';
import ms from 'ms';
import { z } from 'zod';
import { POSTGRES_LIMITS } from '../persistence/typeorm/postgres-limits';

/**
 * Every environment variable the service reads: its type, default, bounds and meaning, in one
 * zod schema. An unset or empty variable takes its default. The README's "Configuration" table
 * lists exactly these names (a unit test compares both ways).
 */

const DEFAULT_SQLITE_PATH = path.join('data', 'blog.sqlite');

/** Where DATABASE_URL points; the PostgreSQL tunables are added to it by loadConfig. */
type DatabaseLocation =
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'memory' };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .refine((raw) => /^\d{1,9}$/.test(raw) && Number(raw) >= min && Number(raw) <= max, {
      error: (issue) => `"${String(issue.input)}" is not a whole number from ${min} to ${max}`,
    })
    .transform(Number);

const oneOf = <const T extends readonly [string, ...string[]]>(choices: T) =>
  z.enum(choices, { error: () => `expected one of ${choices.join(', ')}` });

const trueOrFalse = () => oneOf(['true', 'false']).transform((raw) => raw === 'true');

const port = z
  .string()
  .refine((raw) => /^\d{1,5}$/.test(raw) && Number(raw) <= 65535, {
    error: (issue) => `"${String(issue.input)}" is not a port number (0-65535)`,
  })
  .transform(Number);

// "auto": one worker per core the process may use.
const workers = z
  .string()
  .refine((raw) => raw === 'auto' || (/^\d{1,2}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 64), {
    error: (issue) => `"${String(issue.input)}" is not auto or a whole number from 1 to 64`,
  })
  .transform((raw) => (raw === 'auto' ? os.availableParallelism() : Number(raw)));

const BODY_SIZE = /^\d+(?:\.\d+)?\s*(?:b|kb|mb|gb)?$/i;

/**
 * A size such as 1mb or 512kb; with `zeroAllowed`, 0 too. bytes.parse alone would read "1m" or
 * "10 apples" as their leading digits.
 */
const size = (zeroAllowed: boolean) =>
  z
    .string()
    .refine(
      (raw) => {
        const parsed = BODY_SIZE.test(raw) ? bytes.parse(raw) : null;
        return parsed !== null && Number.isFinite(parsed) && (zeroAllowed ? parsed >= 0 : parsed > 0);
      },
      { error: (issue) => `"${String(issue.input)}" is not a size such as 1mb or 512kb${zeroAllowed ? ', or 0' : ''}` },
    )
    .transform((raw) => bytes.parse(raw) ?? 0);

const DURATION = /^\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)$/;
const ONE_SECOND_MS = 1_000;
const SEVEN_DAYS_MS = 7 * 86_400_000;
const MOST_RETRIES = 20;

/**
 * Durations with their unit, separated by commas (`5s,5m,30m,2h`): each 1 s to 7 d, at most
 * MOST_RETRIES. ms alone would read a bare `5` as milliseconds and `5 apples` as nothing.
 */
const retrySchedule = z.string().transform((raw, context): readonly number[] => {
  const entries = raw.split(',').map((entry) => entry.trim());
  const delays = entries.map((entry) => (DURATION.test(entry) ? ms(entry as ms.StringValue) : Number.NaN));
  const bad = delays.findIndex((delay) => !(delay >= ONE_SECOND_MS && delay <= SEVEN_DAYS_MS));
  if (bad !== -1) {
    context.addIssue({
      code: 'custom',
      message: `"${entries[bad]}" is not a duration from 1s to 7d such as 30s, 5m or 2h`,
    });
    return z.NEVER;
  }
  if (entries.length > MOST_RETRIES) {
    context.addIssue({ code: 'custom', message: `has ${entries.length} delays; at most ${MOST_RETRIES}` });
    return z.NEVER;
  }
  return delays;
});

const corsOrigin = z.string().transform((raw, context): '*' | readonly string[] | null => {
  if (raw.trim() === '') return null;
  if (raw.trim() === '*') return '*';
  const origins = raw.split(',').map((entry) => entry.trim());
  // An origin is scheme://host[:port], exactly what a browser sends in the Origin header.
  const bad = origins.find((origin) => !URL.canParse(origin) || new URL(origin).origin !== origin);
  if (bad === undefined) return origins;
  context.addIssue({ code: 'custom', message: `"${bad}" is not an origin such as https://app.example.com (or use *)` });
  return z.NEVER;
});

const isPostgresUrl = (raw: string) =>
  /^postgres(?:ql)?:\/\//.test(raw) && URL.canParse(raw) && new URL(raw).hostname !== '';

// The messages never repeat the value: a database URL may hold a password.
const databaseUrl = z.string().transform((raw, context): DatabaseLocation => {
  if (raw === 'memory:') return { kind: 'memory' };
  const sqlite = /^(?:sqlite|file):(.*)$/.exec(raw);
  if (sqlite) {
    // sqlite:data/x.db, sqlite:/abs/x.db and sqlite:///abs/x.db all name a file.
    const file = (sqlite[1] ?? '').replace(/^\/\//, '');
    if (file !== '') return { kind: 'sqlite', path: file };
    context.addIssue({ code: 'custom', message: 'names no SQLite file (e.g. sqlite:data/blog.sqlite)' });
    return z.NEVER;
  }
  if (isPostgresUrl(raw)) return { kind: 'postgres', url: raw };
  context.addIssue({ code: 'custom', message: 'expected postgres://…, sqlite:<path>, file:<path> or memory:' });
  return z.NEVER;
});

/** An origin with nothing after it (`https://blog.example.com`, `http://localhost:3000`): feed links start with it. */
const publicUrl = z.string().transform((raw, context): string => {
  const origin = URL.canParse(raw) ? new URL(raw).origin : null;
  if (origin === null || origin === 'null' || raw.replace(/\/$/, '') !== origin) {
    context.addIssue({ code: 'custom', message: 'expected an origin such as https://blog.example.com (no path)' });
    return z.NEVER;
  }
  return origin;
});

/** An absolute http(s) URL once `{slug}` and `{id}` are replaced: each article's page in the feeds. */
const articleUrlTemplate = z.string().transform((raw, context): string => {
  const example = raw.replaceAll('{slug}', 'a-slug').replaceAll('{id}', '1');
  const protocol = URL.canParse(example) ? new URL(example).protocol : null;
  if (protocol !== 'http:' && protocol !== 'https:') {
    context.addIssue({ code: 'custom', message: 'expected an http(s) URL with {slug} or {id}' });
    return z.NEVER;
  }
  return raw;
});

const postgresUrls = z.string().transform((raw, context): readonly string[] => {
  const urls = raw.split(',').map((entry) => entry.trim());
  const bad = urls.findIndex((url) => !isPostgresUrl(url));
  if (bad === -1) return urls;
  context.addIssue({ code: 'custom', message: `entry ${bad + 1} is not a postgres://… URL` });
  return z.NEVER;
});

export const ENVIRONMENT = z
  .object({
    PORT: port.default(3000).describe('listening port'),
    DATABASE_URL: databaseUrl
      .default({ kind: 'sqlite', path: DEFAULT_SQLITE_PATH })
      .describe('postgres://… PostgreSQL, sqlite:<path> or file:<path> SQLite, memory: in-memory store'),
    DATABASE_READ_URLS: postgresUrls
      .default([])
      .describe('comma-separated PostgreSQL URLs of read replicas: list, get, tags and categories read there'),
    REPLICA_MAX_LAG_MS: wholeNumber(0, 3_600_000)
      .default(1_000)
      .describe('replication lag past which a replica is not read: reads go to the primary until it catches up'),
    PG_POOL_SIZE: wholeNumber(1, 1_000)
      .default(POSTGRES_LIMITS.poolSize)
      .describe('PostgreSQL connections in each server process pool'),
    PG_PREPARED_STATEMENTS: trueOrFalse()
      .default(true)
      .describe('named prepared statements; false behind PgBouncer < 1.21 in transaction mode'),
    API_TOKEN: z
      .string()
      .nullable()
      .default(null)
      .describe('an admin bearer token (writes, keys); unset: writes are open until a key exists'),
    BODY_LIMIT: size(false).default(1_048_576).describe('largest JSON body, in bytes once parsed'),
    LIST_CACHE_SIZE: size(true)
      .default(8_388_608)
      .describe('whole-list answers kept while the data is unchanged, in bytes; 0: none kept'),
    LOG_LEVEL: oneOf(LOG_LEVELS).default('info').describe('pino log level'),
    LOG_FORMAT: oneOf(['json', 'pretty']).default('json').describe('json lines, or pino-pretty for a terminal'),
    CORS_ORIGIN: corsOrigin.default(null).describe('origins allowed from a browser: *, or a list; unset: no CORS'),
    // 0 means off, like unset: a limit of zero requests would be an outage, not a limit.
    RATE_LIMIT_PER_MINUTE: wholeNumber(0, 1_000_000)
      .transform((limit) => limit || null)
      .default(null)
      .describe('requests per client IP and minute; 0 or unset: off'),
    TRUST_PROXY: wholeNumber(0, 10).default(0).describe('proxy hops whose X-Forwarded-For is trusted'),
    SEED_ENABLED: trueOrFalse().default(true).describe('whether GET /seed/create is served'),
    SHUTDOWN_DRAIN_MS: wholeNumber(0, 600_000)
      .default(1_000)
      .describe('after SIGTERM, how long connections are still accepted while /ready says 503'),
    SHUTDOWN_TIMEOUT_MS: wholeNumber(1, 600_000).default(10_000).describe('bound on the whole shutdown'),
    IDEMPOTENCY_KEY_RETENTION_HOURS: wholeNumber(1, 8_760)
      .default(24)
      .describe('how long an Idempotency-Key answers a retried create; older keys are processed anew and purged'),
    REVISION_RETENTION_DAYS: wholeNumber(1, 36_500)
      .default(30)
      .describe('how long an article revision is kept after a write replaced it; older ones are purged'),
    PUBLIC_URL: publicUrl
      .optional()
      .describe("the service's public origin, for feed links; unset: http://localhost:<PORT>"),
    ARTICLE_URL_TEMPLATE: articleUrlTemplate
      .optional()
      .describe("an article's page in feeds, {slug} and {id} replaced; unset: <PUBLIC_URL>/article/slug/{slug}"),
    FEED_SIZE: wholeNumber(1, 100).default(20).describe('entries per feed'),
    FEED_TITLE: z.string().default('Blog').describe("the feeds' title and the Atom feed's author name"),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: trueOrFalse()
      .default(false)
      .describe('true: webhook URLs may reach loopback and private addresses (tests, receivers inside the network)'),
    WEBHOOK_RETRY_SCHEDULE: retrySchedule
      .optional()
      .describe(
        "the waits between a delivery's failed attempts, each ± 20 %; unset: Standard Webhooks' 5s,5m,30m,2h,5h,10h,10h",
      ),
    WORKERS: workers.default(1).describe('server processes sharing the port (node:cluster), 1 to 64 or auto'),
  })
  .superRefine(
    (variables, context) => {
      if (variables.SHUTDOWN_DRAIN_MS >= variables.SHUTDOWN_TIMEOUT_MS) {
        context.addIssue({
          code: 'custom',
          path: ['SHUTDOWN_DRAIN_MS'],
          message: `must be shorter than SHUTDOWN_TIMEOUT_MS (${variables.SHUTDOWN_TIMEOUT_MS})`,
        });
      }
      if (variables.WORKERS > 1 && variables.DATABASE_URL.kind === 'memory') {
        context.addIssue({
          code: 'custom',
          path: ['WORKERS'],
          message: 'each worker would have its own in-memory store; use SQLite or PostgreSQL',
        });
      }
      if (variables.DATABASE_READ_URLS.length > 0 && variables.DATABASE_URL.kind !== 'postgres') {
        context.addIssue({
          code: 'custom',
          path: ['DATABASE_READ_URLS'],
          message: 'read replicas need a PostgreSQL DATABASE_URL',
        });
      }
    },
    // Only once every variable has parsed: a bad value is reported as itself, not through a rule.
    { when: (payload) => payload.issues.length === 0 },
  );
