import type { z } from 'zod';
import { STANDARD_RETRY_DELAYS_MS } from '../../application';
import { ENVIRONMENT } from './environment';

/**
 * PostgreSQL and its tunables. loadConfig always fills every field; the tunables are optional
 * only so that a test can name a database by its URL alone (then the defaults apply).
 */
export interface PostgresDatabaseConfig {
  readonly kind: 'postgres';
  readonly url: string;
  /** Connections in this process's pool (PG_POOL_SIZE); the total is this times WORKERS. */
  readonly poolSize?: number;
  /** Read replicas (DATABASE_READ_URLS): the repository's reads go there when they are in step. */
  readonly readUrls?: readonly string[];
  /** Replication lag past which a replica is not read (REPLICA_MAX_LAG_MS). */
  readonly replicaMaxLagMs?: number;
  /** Named prepared statements (PG_PREPARED_STATEMENTS); false behind PgBouncer < 1.21 in transaction mode. */
  readonly preparedStatements?: boolean;
}

export interface SqliteDatabaseConfig {
  readonly kind: 'sqlite';
  /** The database file, or ':memory:'. */
  readonly path: string;
}

/** A database the TypeORM adapter opens; its kind picks the connection options and migrations. */
export type SqlDatabaseConfig = PostgresDatabaseConfig | SqliteDatabaseConfig;

export type DatabaseConfig = SqlDatabaseConfig | { readonly kind: 'memory' };

export interface AppConfig {
  readonly port: number;
  readonly database: DatabaseConfig;
  /** null: writes are open. */
  readonly apiToken: string | null;
  readonly bodyLimitBytes: number;
  /** Bytes of whole-list answers kept while the storage's version is unchanged; 0: none. */
  readonly listCacheBytes: number;
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
  /** How long an Idempotency-Key's record answers a retried create (IDEMPOTENCY_KEY_RETENTION_HOURS). */
  readonly idempotencyKeyRetentionMs: number;
  /** How long a revision is kept after the write that replaced it (REVISION_RETENTION_DAYS). */
  readonly revisionRetentionMs: number;
  readonly feeds: FeedSettings;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhook URLs may reach loopback and private addresses. */
  readonly webhookPrivateNetworks: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: the waits between a delivery's failed attempts. */
  readonly webhookRetryDelaysMs: readonly number[];
}

/** What the feeds are made of besides the articles (the contract's "Feeds"). */
export interface FeedSettings {
  /** The origin feed links start with (PUBLIC_URL). */
  readonly publicUrl: string;
  /** An article's page, `{slug}` and `{id}` to replace (ARTICLE_URL_TEMPLATE). */
  readonly articleUrlTemplate: string;
  readonly size: number;
  readonly title: string;
}

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

/** Reads the environment through the schema (environment.ts); an empty variable counts as unset. */
export function loadConfig(env: Env): AppConfig {
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ENVIRONMENT.safeParse(set);
  if (!parsed.success) throw configErrorOf(parsed.error);
  const variables = parsed.data;
  const location = variables.DATABASE_URL;
  return {
    port: variables.PORT,
    database:
      location.kind === 'postgres'
        ? {
            ...location,
            poolSize: variables.PG_POOL_SIZE,
            readUrls: variables.DATABASE_READ_URLS,
            replicaMaxLagMs: variables.REPLICA_MAX_LAG_MS,
            preparedStatements: variables.PG_PREPARED_STATEMENTS,
          }
        : location,
    apiToken: variables.API_TOKEN,
    bodyLimitBytes: variables.BODY_LIMIT,
    listCacheBytes: variables.LIST_CACHE_SIZE,
    logLevel: variables.LOG_LEVEL,
    logFormat: variables.LOG_FORMAT,
    corsOrigin: variables.CORS_ORIGIN,
    rateLimitPerMinute: variables.RATE_LIMIT_PER_MINUTE,
    trustProxyHops: variables.TRUST_PROXY,
    seedEnabled: variables.SEED_ENABLED,
    shutdownDrainMs: variables.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: variables.SHUTDOWN_TIMEOUT_MS,
    workers: variables.WORKERS,
    idempotencyKeyRetentionMs: variables.IDEMPOTENCY_KEY_RETENTION_HOURS * 3_600_000,
    revisionRetentionMs: variables.REVISION_RETENTION_DAYS * 86_400_000,
    feeds: feedSettingsOf(variables),
    webhookPrivateNetworks: variables.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    webhookRetryDelaysMs: variables.WEBHOOK_RETRY_SCHEDULE ?? STANDARD_RETRY_DELAYS_MS,
  };
}

function feedSettingsOf(variables: z.infer<typeof ENVIRONMENT>): FeedSettings {
  const publicUrl = variables.PUBLIC_URL ?? `http://localhost:${variables.PORT}`;
  return {
    publicUrl,
    articleUrlTemplate: variables.ARTICLE_URL_TEMPLATE ?? `${publicUrl}/article/slug/{slug}`,
    size: variables.FEED_SIZE,
    title: variables.FEED_TITLE,
  };
}

/** The first problem, as one line naming its variable (the schema reports variables in order). */
function configErrorOf(error: z.ZodError): ConfigError {
  const [issue] = error.issues;
  return new ConfigError(String(issue?.path[0] ?? 'configuration'), issue?.message ?? 'invalid');
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
