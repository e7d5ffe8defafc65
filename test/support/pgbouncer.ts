import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pgBouncerComponent } from '../../scripts/topology/pgbouncer';
import { launch, postgresUserIfRoot, stopGroup } from '../../scripts/topology/processes';
import { REPO_ROOT } from '../../scripts/topology/settings';
import type { Component } from '../../scripts/topology/state';
import { waitUntilReady } from '../../scripts/topology/topology';
import { POSTGRES_LIMITS } from '../../src/infrastructure/persistence/typeorm/postgres-limits';
import { freePort } from './free-port';
import { withPostgresClient } from './postgres-sql';

export interface RunningPgBouncer {
  /** The database through PgBouncer, as the same user: a URL for DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer in front of a test database, with the topology's own config
 * (deploy/pgbouncer/pgbouncer.ini: transaction pooling, connections handed out in turn). The
 * database gets the time limits the topology sets on its role, since PgBouncer ignores them as
 * startup parameters. Install it with scripts/ensure-debian-packages.sh pgbouncer=pgbouncer.
 */
export async function startPgBouncer(databaseUrl: string): Promise<RunningPgBouncer> {
  const target = new URL(databaseUrl);
  const database = decodeURIComponent(target.pathname.slice(1));
  const login = { user: decodeURIComponent(target.username), password: decodeURIComponent(target.password), database };
  await setTimeLimits(databaseUrl, database);

  const runAs = postgresUserIfRoot();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-pgbouncer-'));
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
  const port = await freePort();
  const through = new URL(databaseUrl);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  // The test server stands for both the primary and the replica.
  through.pathname = '/blog';
  const serverPort = Number(target.port);
  const spec = pgBouncerComponent(
    { repoRoot: REPO_ROOT, postgresDir: dir, logDir: dir, runAs },
    { pgbouncer: port, primary: serverPort, replica: serverPort },
    login,
    through.toString(),
  );
  const component: Component = { ...spec, pid: launch(spec.launch) };
  const stop = async () => {
    await stopGroup(component.pid, 'SIGTERM', 5_000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(component, 15_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: through.toString(), stop };
}

async function setTimeLimits(databaseUrl: string, database: string): Promise<void> {
  await withPostgresClient(databaseUrl, async (client) => {
    const name = client.escapeIdentifier(database);
    await client.query(`ALTER DATABASE ${name} SET statement_timeout = '${POSTGRES_LIMITS.statementMs}ms'`);
    await client.query(
      `ALTER DATABASE ${name} SET idle_in_transaction_session_timeout = '${POSTGRES_LIMITS.idleInTransactionMs}ms'`,
    );
  });
}
