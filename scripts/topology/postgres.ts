import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { POSTGRES_LIMITS } from '../../src/infrastructure/persistence/typeorm/postgres-limits';
import type { RunAs } from './processes';
import type { Component } from './state';
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

const asPostgres = (paths: PostgresPaths) => ({
  cwd: paths.postgresDir,
  stdio: 'pipe' as const,
  env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' },
  ...(paths.runAs && { uid: paths.runAs.uid, gid: paths.runAs.gid }),
});

/** A file the postgres user owns and reads, written by this process. */
function writeOwned(paths: PostgresPaths, file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o600 });
  if (paths.runAs) fs.chownSync(file, paths.runAs.uid, paths.runAs.gid);
}

/** Settings and access rules from deploy/postgres, for the server whose data is in `dataDir`. */
function writeServerConfig(paths: PostgresPaths, dataDir: string, port: number): void {
  const conf = renderTemplate(paths.repoRoot, 'postgres/postgresql.conf', {
    PORT: port,
    SOCKET_DIR: paths.postgresDir,
  });
  writeOwned(paths, path.join(dataDir, 'postgresql.conf'), conf);
  writeOwned(paths, path.join(dataDir, 'pg_hba.conf'), renderTemplate(paths.repoRoot, 'postgres/pg_hba.conf', {}));
}

/** initdb of the primary: UTF-8, C locale, a superuser with a password. */
export function initPrimary(paths: PostgresPaths, dataDir: string, port: number, passwords: Passwords): void {
  const passwordFile = path.join(paths.postgresDir, 'superuser.pw');
  writeOwned(paths, passwordFile, `${passwords.superuser}\n`);
  try {
    execFileSync(
      path.join(POSTGRES_BIN, 'initdb'),
      [`--pgdata=${dataDir}`, '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'],
      asPostgres(paths),
    );
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
  writeServerConfig(paths, dataDir, port);
}

/** The service's role and database, the replication role (deploy/postgres/setup.sql). */
export async function setUpPrimary(paths: PostgresPaths, superuserUrl: string, passwords: Passwords): Promise<void> {
  const sql = renderTemplate(paths.repoRoot, 'postgres/setup.sql', {
    APP_PASSWORD: passwords.app,
    REPLICATOR_PASSWORD: passwords.replicator,
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

/**
 * The replica: a base backup of the running primary through a replication slot, with the
 * standby settings pg_basebackup -R writes (primary_conninfo, standby.signal), then the
 * topology's settings on its own port.
 */
export function initReplica(
  paths: PostgresPaths,
  dataDir: string,
  port: number,
  primaryPort: number,
  passwords: Passwords,
): void {
  const primary = `host=127.0.0.1 port=${primaryPort} user=replicator password=${passwords.replicator}`;
  execFileSync(
    path.join(POSTGRES_BIN, 'pg_basebackup'),
    ['-d', primary, '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '-C', '-S', 'replica1'],
    asPostgres(paths),
  );
  writeServerConfig(paths, dataDir, port);
}

/** How the topology runs a PostgreSQL server: `postgres -D <data>` as the postgres user, stopped by SIGINT (fast). */
export function postgresComponent(
  kind: 'primary' | 'replica',
  paths: PostgresPaths,
  dataDir: string,
  port: number,
  superuserUrl: string,
): Omit<Component, 'pid'> {
  return {
    kind,
    port,
    stopSignal: 'SIGINT',
    launch: {
      command: path.join(POSTGRES_BIN, 'postgres'),
      args: ['-D', dataDir],
      cwd: paths.postgresDir,
      env: { LC_ALL: 'C' },
      logFile: path.join(paths.logDir, `${kind}.log`),
      ...(paths.runAs && { runAs: paths.runAs }),
    },
    ready: {
      type: 'sql',
      url: superuserUrl,
      // A replica is ready once it has replayed up to a consistent point and streams.
      sql:
        kind === 'primary'
          ? 'SELECT NOT pg_is_in_recovery() AS ok'
          : 'SELECT pg_is_in_recovery() AND EXISTS (SELECT FROM pg_stat_wal_receiver WHERE status = $$streaming$$) AS ok',
    },
  };
}
