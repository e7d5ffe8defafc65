import fs from 'node:fs';
import path from 'node:path';
import { POSTGRES_LIMITS } from '../../src/infrastructure/persistence/typeorm/postgres-limits';
import type { PostgresPaths } from './postgres';
import type { Component } from './state';
import { renderTemplate } from './templates';

/** The one role PgBouncer lets in (the service's), and the database its entries point at. */
export interface PgBouncerLogin {
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

export interface PgBouncerPorts {
  readonly pgbouncer: number;
  readonly primary: number;
  readonly replica: number;
}

/**
 * PgBouncer's config (deploy/pgbouncer/pgbouncer.ini) and its user list (the service's role,
 * with its password in clear, which PgBouncer needs to log in to the server with SCRAM), in a
 * folder of the postgres user: PgBouncer refuses to run as root.
 */
export function pgBouncerComponent(
  paths: PostgresPaths,
  ports: PgBouncerPorts,
  login: PgBouncerLogin,
  /** A URL through PgBouncer, on which `up` checks that the role's time limits apply. */
  readyUrl: string,
) {
  const dir = path.join(paths.postgresDir, 'pgbouncer');
  fs.mkdirSync(dir, { mode: 0o700 });
  const userlist = path.join(dir, 'userlist.txt');
  const ini = path.join(dir, 'pgbouncer.ini');
  const own = (file: string) => paths.runAs && fs.chownSync(file, paths.runAs.uid, paths.runAs.gid);
  fs.writeFileSync(userlist, `"${login.user}" "${login.password}"\n`, { mode: 0o600 });
  fs.writeFileSync(
    ini,
    renderTemplate(paths.repoRoot, 'pgbouncer/pgbouncer.ini', {
      PRIMARY_PORT: ports.primary,
      REPLICA_PORT: ports.replica,
      PGBOUNCER_PORT: ports.pgbouncer,
      DATABASE: login.database,
      USERLIST_FILE: userlist,
      IDLE_IN_TRANSACTION_S: Math.ceil(POSTGRES_LIMITS.idleInTransactionMs / 1000),
    }),
    { mode: 0o600 },
  );
  for (const file of [dir, userlist, ini]) own(file);
  const component: Omit<Component, 'pid'> = {
    kind: 'pgbouncer',
    port: ports.pgbouncer,
    // SIGTERM: immediate shutdown (SIGINT would wait for every client to finish first).
    stopSignal: 'SIGTERM',
    launch: {
      command: 'pgbouncer',
      args: [ini],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      logFile: path.join(paths.logDir, 'pgbouncer.log'),
      ...(paths.runAs && { runAs: paths.runAs }),
    },
    ready: {
      type: 'sql',
      url: readyUrl,
      // Through PgBouncer, as the service: the role's time limits must apply (setup.sql).
      sql: `SELECT current_setting('statement_timeout') = '${POSTGRES_LIMITS.statementMs / 1000}s' AS ok`,
    },
  };
  return component;
}
