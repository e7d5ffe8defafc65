import fs from 'node:fs';
import path from 'node:path';
import { installArchivePush, writePgBackRestConfig } from './pgbackrest';
import { type Passwords, POSTGRES_BIN, type PostgresPaths } from './postgres';
import { processesWorkingIn, signalQuietly } from './processes';
import type { Component, DatabaseNode } from './state';
import { renderTemplate } from './templates';

/** Where a node's Patroni finds etcd, and whom its PostgreSQL lets in (a CIDR for pg_hba). */
export interface NodeSurroundings {
  readonly etcdHost: string;
  readonly etcdPort: number;
  readonly clients: string;
}

/**
 * How a node bootstraps a cluster that etcd does not know: initdb (a new cluster), or a restore
 * from the pgBackRest repository, to a time or (no `to`) to the end of the archived WAL.
 */
export type Bootstrap = { readonly method: 'initdb' } | { readonly method: 'pgbackrest'; readonly to?: Date };

/** Writes the node's Patroni config (deploy/patroni/patroni.yml) in the postgres user's folder; answers its path. */
export function writePatroniConfig(
  paths: PostgresPaths,
  node: DatabaseNode,
  around: NodeSurroundings,
  passwords: Passwords,
  bootstrap: Bootstrap = { method: 'initdb' },
): string {
  const config = path.join(paths.postgresDir, `${node.name}.yml`);
  fs.writeFileSync(
    config,
    renderTemplate(paths.repoRoot, 'patroni/patroni.yml', {
      NODE_NAME: node.name,
      HOST: node.host,
      REST_PORT: node.restPort,
      PG_PORT: node.pgPort,
      ETCD_HOST: around.etcdHost,
      ETCD_PORT: around.etcdPort,
      DATA_DIR: node.dataDir,
      BIN_DIR: POSTGRES_BIN,
      PGPASS_FILE: path.join(paths.postgresDir, `${node.name}.pgpass`),
      SUPERUSER_PASSWORD: passwords.superuser,
      REPLICATOR_PASSWORD: passwords.replicator,
      SOCKET_DIR: paths.postgresDir,
      CLIENTS: around.clients,
      BOOTSTRAP_METHOD: bootstrap.method,
      RESTORE_TARGET: bootstrap.method === 'pgbackrest' ? restoreTargetOptions(bootstrap.to) : '',
      ARCHIVE_PUSH: installArchivePush(paths),
    }),
    { mode: 0o600 },
  );
  if (paths.runAs) fs.chownSync(config, paths.runAs.uid, paths.runAs.gid);
  return config;
}

/**
 * pgBackRest's restore options for a target time (PostgreSQL's own timestamp syntax, which
 * pgBackRest also reads to pick the backup), promoting once there; none for the end of the archive.
 */
function restoreTargetOptions(to: Date | undefined): string {
  if (!to) return '--type=default';
  const postgresTime = `${to.toISOString().replace('T', ' ').replace('Z', '')}+00`;
  return `--type=time "--target=${postgresTime}" --target-action=promote`;
}

/**
 * One node's Patroni: its config (deploy/patroni/patroni.yml) in the postgres user's folder, run
 * as the postgres user, inside the node's namespace when it has one. Patroni starts, promotes,
 * demotes and rewinds the node's PostgreSQL itself; SIGTERM stops both (a fast shutdown). Its
 * environment names the node's pgBackRest config, for the archive and restore commands it runs.
 */
export function patroniComponent(
  paths: PostgresPaths,
  node: DatabaseNode,
  around: NodeSurroundings,
  passwords: Passwords,
): Omit<Component, 'pid'> {
  const config = writePatroniConfig(paths, node, around, passwords);
  const patroni = ['patroni', config];
  const env = {
    PATH: process.env.PATH ?? '',
    LC_ALL: 'C',
    HOME: paths.postgresDir,
    PGBACKREST_CONFIG: writePgBackRestConfig(paths, node),
  };
  const launch = node.namespace
    ? {
        // `ip netns exec` and setpriv both exec: the pid is Patroni's own.
        command: 'ip',
        args: [
          'netns',
          'exec',
          node.namespace,
          'setpriv',
          '--reuid=postgres',
          '--regid=postgres',
          '--init-groups',
          ...patroni,
        ],
        cwd: paths.postgresDir,
        env,
        logFile: path.join(paths.logDir, `${node.name}.log`),
      }
    : {
        command: 'patroni',
        args: [config],
        cwd: paths.postgresDir,
        env,
        logFile: path.join(paths.logDir, `${node.name}.log`),
        ...(paths.runAs && { runAs: paths.runAs }),
      };
  return {
    kind: 'patroni',
    port: node.restPort,
    node,
    stopSignal: 'SIGTERM',
    launch,
    // Patroni answers /health with 200 once its PostgreSQL runs (as primary or replica).
    ready: { type: 'http', url: `${restUrl(node)}/health` },
  };
}

export const restUrl = (node: DatabaseNode) => `http://${node.host}:${node.restPort}`;

/** A member of Patroni's GET /cluster answer. */
export interface ClusterMember {
  readonly name: string;
  /** `leader`, `sync_standby` or `replica`. */
  readonly role: string;
  /** `running`, `streaming`, `stopped`, `starting`, ... */
  readonly state: string;
  readonly timeline?: number;
  readonly lag?: number | string;
}

/** The cluster as the first node that answers sees it (every Patroni reads it from etcd). */
export async function clusterMembers(nodes: readonly DatabaseNode[]): Promise<ClusterMember[]> {
  let lastError: unknown;
  for (const node of nodes) {
    try {
      const response = await fetch(`${restUrl(node)}/cluster`, { signal: AbortSignal.timeout(1_000) });
      if (!response.ok) throw new Error(`GET /cluster answered ${response.status}`);
      return ((await response.json()) as { members: ClusterMember[] }).members;
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`no Patroni answered GET /cluster (${(lastError as Error)?.message})`);
}

/** Whether the node's Patroni answers 200 on `check` (/primary, /replica, /health). */
export async function answers(node: DatabaseNode, check: string): Promise<boolean> {
  try {
    const response = await fetch(`${restUrl(node)}${check}`, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** The node's postmaster pid (the first line of postmaster.pid), or null when it does not run. */
export function postmasterPid(node: DatabaseNode): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** A node's death, as a fault: its Patroni, its postmaster and every backend SIGKILLed at once. */
export function killNode(patroni: Component): void {
  const node = patroni.node;
  if (!node) throw new Error(`${patroni.kind} is not a node`);
  signalQuietly(patroni.pid, 'SIGKILL');
  const postmaster = postmasterPid(node);
  if (postmaster !== null) signalQuietly(postmaster, 'SIGKILL');
  for (const pid of processesWorkingIn(node.dataDir)) signalQuietly(pid, 'SIGKILL');
}

/**
 * A planned switchover through the leader's REST API (POST /switchover, Patroni picks the
 * synchronous standby). Patroni answers once the new leader is promoted.
 */
export async function requestSwitchover(leader: DatabaseNode): Promise<string> {
  const response = await fetch(`${restUrl(leader)}/switchover`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ leader: leader.name }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`switchover refused: ${response.status} ${text}`);
  return text;
}
