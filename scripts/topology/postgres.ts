import { Client } from 'pg';
import { POSTGRES_LIMITS } from '../../src/infrastructure/persistence/typeorm/postgres-limits';
import type { RunAs } from './processes';
import { renderTemplate } from './templates';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

export interface Passwords {
  readonly superuser: string;
  readonly app: string;
  readonly replicator: string;
}

export interface PostgresPaths {
  readonly repoRoot: string;
  /** Owned by the postgres user; the data folders and the sockets live in it. */
  readonly postgresDir: string;
  readonly logDir: string;
  readonly runAs: RunAs | undefined;
}

/** The service's role and database (deploy/postgres/setup.sql), on the primary; Patroni made the replication role. */
export async function setUpPrimary(paths: PostgresPaths, superuserUrl: string, passwords: Passwords): Promise<void> {
  const sql = renderTemplate(paths.repoRoot, 'postgres/setup.sql', {
    APP_PASSWORD: passwords.app,
    STATEMENT_TIMEOUT_MS: POSTGRES_LIMITS.statementMs,
    IDLE_IN_TRANSACTION_MS: POSTGRES_LIMITS.idleInTransactionMs,
  });
  const client = new Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    // CREATE DATABASE cannot run inside the implicit transaction of a multi-statement string.
    for (const statement of statementsOf(sql)) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The statements of a script whose statements each end a line with `;` (no `;` inside literals). */
function statementsOf(sql: string): string[] {
  const withoutComments = sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/** A WAL position (`16/B374D848`: its high and low 32 bits in hex) as a byte offset. */
export function lsnBytes(lsn: string): number {
  const [high = 0, low = 0] = lsn.split('/').map((half) => Number.parseInt(half, 16));
  return high * 2 ** 32 + low;
}
