import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/logger';
import { KEY_REFRESH_SESSIONS } from '../persistence/typeorm/key-repository/key-changes-on-own-session';
import { POSTGRES_LIMITS } from '../persistence/typeorm/postgres-limits';
import type { PostgresDatabaseConfig } from './config';

/** The server settings that bound how many connections ordinary roles may open. */
export interface PostgresConnectionLimits {
  readonly maxConnections: number;
  readonly superuserReservedConnections: number;
  /** reserved_connections, for roles with pg_use_reserved_connections (PostgreSQL 16+); 0 before. */
  readonly reservedConnections: number;
}

export interface ConnectionBudget {
  /** What the service may open at once: each process's sessions, times the processes. */
  readonly total: number;
  /** What the server lets a role without reserved slots open. */
  readonly available: number;
  readonly exceeded: boolean;
}

export function connectionBudget(
  sessionsPerProcess: number,
  workers: number,
  limits: PostgresConnectionLimits,
): ConnectionBudget {
  const total = sessionsPerProcess * workers;
  const available = Math.max(
    0,
    limits.maxConnections - limits.superuserReservedConnections - limits.reservedConnections,
  );
  return { total, available, exceeded: total > available };
}

/** PostgreSQL 16 added reserved_connections; SHOW of an unknown setting is an error. */
const FIRST_VERSION_WITH_RESERVED_CONNECTIONS = 160_000;

/** Reads the limits from the server, with SHOW on one of the data source's connections. */
export async function readPostgresConnectionLimits(dataSource: DataSource): Promise<PostgresConnectionLimits> {
  const show = async (setting: string): Promise<number> => {
    const rows: Array<Record<string, string>> = await dataSource.query(`SHOW ${setting}`);
    const value = Number(rows[0]?.[setting]);
    if (!Number.isInteger(value)) throw new Error(`SHOW ${setting} answered ${JSON.stringify(rows[0])}`);
    return value;
  };
  const version = await show('server_version_num');
  return {
    maxConnections: await show('max_connections'),
    superuserReservedConnections: await show('superuser_reserved_connections'),
    reservedConnections: version >= FIRST_VERSION_WITH_RESERVED_CONNECTIONS ? await show('reserved_connections') : 0,
  };
}

/**
 * Called once at start on PostgreSQL: logs how many connections the service may open
 * (PG_POOL_SIZE × WORKERS) and warns when the server would refuse some of them. Never fails
 * the start: a server whose settings cannot be read is reported and the service goes on.
 */
export async function checkPostgresConnectionBudget(
  dataSource: DataSource,
  database: PostgresDatabaseConfig,
  workers: number,
  logger: Logger,
): Promise<ConnectionBudget | null> {
  const poolSize = database.poolSize ?? POSTGRES_LIMITS.poolSize;
  let limits: PostgresConnectionLimits;
  try {
    limits = await readPostgresConnectionLimits(dataSource);
  } catch (error) {
    logger.warn(
      { err: error, poolSize, workers },
      'could not read max_connections; the connection budget is unchecked',
    );
    return null;
  }
  const budget = connectionBudget(poolSize + KEY_REFRESH_SESSIONS, workers, limits);
  logger.info(
    { poolSize, workers, total: budget.total, available: budget.available },
    `PostgreSQL connections: up to ${budget.total} ((PG_POOL_SIZE ${poolSize} + ${KEY_REFRESH_SESSIONS} for the key refresh) × WORKERS ${workers})`,
  );
  if (budget.exceeded) {
    logger.warn(
      { ...limits, total: budget.total, available: budget.available },
      `(PG_POOL_SIZE + ${KEY_REFRESH_SESSIONS}) × WORKERS = ${budget.total} exceeds the ${budget.available} connections the server allows ` +
        '(max_connections minus reserved slots): requests past that fail with "too many clients"',
    );
  }
  return budget;
}
