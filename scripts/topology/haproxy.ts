import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Component, DatabaseNode } from './state';
import { renderTemplate } from './templates';

/** HAProxy's config (deploy/haproxy/haproxy.cfg) over the instances' ports, checked by `haproxy -c` first. */
export function haproxyComponent(
  repoRoot: string,
  stateDir: string,
  logDir: string,
  lbPort: number,
  instancePorts: readonly number[],
): Omit<Component, 'pid'> {
  const config = path.join(stateDir, 'haproxy.cfg');
  const servers = instancePorts.map((port, index) => `    server instance${index + 1} 127.0.0.1:${port}`).join('\n');
  fs.writeFileSync(
    config,
    renderTemplate(repoRoot, 'haproxy/haproxy.cfg', {
      LB_PORT: lbPort,
      STATS_SOCKET: haproxySocket(stateDir),
      ERRORS_DIR: path.join(repoRoot, 'deploy', 'haproxy', 'errors'),
      SERVERS: servers,
    }),
  );
  return {
    ...checkedHaproxy('haproxy', lbPort, config, stateDir, logDir),
    ready: { type: 'http', url: `http://127.0.0.1:${lbPort}/ready` },
  };
}

/**
 * One HAProxy process on a config checked by `haproxy -c` first: the launch both HAProxies of
 * the topology share (their log file is named after their kind).
 */
function checkedHaproxy(
  kind: 'haproxy' | 'haproxy-db',
  port: number,
  config: string,
  stateDir: string,
  logDir: string,
): Pick<Component, 'kind' | 'port' | 'stopSignal' | 'launch'> {
  execFileSync('haproxy', ['-c', '-q', '-f', config], { stdio: 'pipe' });
  return {
    kind,
    port,
    // SIGTERM: stop at once; what is behind it is stopped next anyway.
    stopSignal: 'SIGTERM',
    launch: {
      command: 'haproxy',
      // -db: stay in the foreground (the topology tracks its pid) and log to stderr.
      args: ['-db', '-f', config],
      cwd: stateDir,
      env: { PATH: process.env.PATH ?? '' },
      logFile: path.join(logDir, `${kind}.log`),
    },
  };
}

/** HAProxy's runtime API socket of a topology (the `stats socket` of haproxy.cfg). */
export const haproxySocket = (stateDir: string) => path.join(stateDir, 'haproxy.sock');

/** The database HAProxy's runtime API socket. */
export const haproxyDbSocket = (stateDir: string) => path.join(stateDir, 'haproxy-db.sock');

/** Sends one command to HAProxy's runtime API (the front one's unless `socket` is given) and answers its reply. */
export function haproxyCommand(stateDir: string, command: string, socket = haproxySocket(stateDir)): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const connection = net.createConnection(socket, () => connection.end(`${command}\n`));
    connection.on('data', (chunk) => {
      answer += chunk;
    });
    connection.once('error', reject);
    connection.once('close', () => resolve(answer));
  });
}

/** Requests HAProxy has sent to an instance (`instance1`, …) and not yet seen answered: `show stat`'s scur. */
export async function requestsInFlight(stateDir: string, server: string): Promise<number> {
  return Number((await instanceServerStat(stateDir, server, 'scur')) ?? 0);
}

/** The front HAProxy's servers of the instances, by the port each one reaches: `show servers state`. */
export async function instanceServersByPort(stateDir: string): Promise<Map<number, string>> {
  // Line 1 is the format's version, line 2 the column names; then one line per server.
  const [, header = '', ...rows] = (await haproxyCommand(stateDir, 'show servers state instances')).trim().split('\n');
  const columns = header.replace(/^# /, '').split(' ');
  const servers = new Map<number, string>();
  for (const cells of rows.map((line) => line.split(' '))) {
    servers.set(Number(cells[columns.indexOf('srv_port')]), cells[columns.indexOf('srv_name')] ?? '');
  }
  return servers;
}

/** A server's status in the front HAProxy's instances backend: `UP`, `MAINT`, `DOWN 1/2`, ... */
export async function instanceServerStatus(stateDir: string, server: string): Promise<string> {
  return (await instanceServerStat(stateDir, server, 'status')) ?? '';
}

/** One column of `show stat`'s row for a server of the front HAProxy's instances backend. */
async function instanceServerStat(stateDir: string, server: string, column: string): Promise<string | undefined> {
  const [header, ...rows] = (await haproxyCommand(stateDir, 'show stat')).trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === 'instances' && cells[1] === server);
  return row?.[columns.indexOf(column)];
}

/**
 * The database HAProxy (deploy/haproxy/haproxy-db.cfg): `primary` reaches the node whose Patroni
 * answers /primary, `replicas` those answering /sync; PgBouncer's two entries point at them.
 * `standbys` (those answering /replica) only carries the state their stand-ins (`<node>-ro`) track.
 */
export function haproxyDbComponent(
  repoRoot: string,
  stateDir: string,
  logDir: string,
  ports: { primary: number; replica: number },
  nodes: readonly DatabaseNode[],
  /** A URL through the primary port, on which `up` checks that it reaches a primary. */
  readyUrl: string,
): Omit<Component, 'pid'> {
  const config = path.join(stateDir, 'haproxy-db.cfg');
  const servers = nodes
    .map((node) => `    server ${node.name} ${node.host}:${node.pgPort} check port ${node.restPort}`)
    .join('\n');
  // Any running replica, standing in while a port has no server of its own (haproxy-db.cfg).
  const standIns = nodes
    .map((node) => `    server ${node.name}-ro ${node.host}:${node.pgPort} backup track standbys/${node.name}`)
    .join('\n');
  fs.writeFileSync(
    config,
    renderTemplate(repoRoot, 'haproxy/haproxy-db.cfg', {
      STATS_SOCKET: haproxyDbSocket(stateDir),
      PRIMARY_PORT: ports.primary,
      REPLICA_PORT: ports.replica,
      PRIMARY_SERVERS: servers,
      PRIMARY_BACKUP_SERVERS: standIns,
      REPLICA_SERVERS: servers,
      REPLICA_BACKUP_SERVERS: standIns,
      STANDBY_SERVERS: servers,
    }),
  );
  return {
    ...checkedHaproxy('haproxy-db', ports.primary, config, stateDir, logDir),
    // HAProxy counts a server up until its checks fail: `up` also waits for dbServerStates to settle.
    ready: { type: 'sql', url: readyUrl, sql: 'SELECT NOT pg_is_in_recovery() AS ok' },
  };
}

/** Each server's check status (`UP`, `DOWN`, `UP 1/2`, ...) in a backend of the database HAProxy. */
export async function dbServerStates(
  stateDir: string,
  backend: 'primary' | 'replicas' | 'standbys',
): Promise<Map<string, string>> {
  const [header, ...rows] = (await haproxyCommand(stateDir, 'show stat', haproxyDbSocket(stateDir))).trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const states = new Map<string, string>();
  for (const cells of rows.map((line) => line.split(','))) {
    if (cells[0] === backend && cells[1] !== 'FRONTEND' && cells[1] !== 'BACKEND') {
      states.set(cells[1] ?? '', cells[columns.indexOf('status')] ?? '');
    }
  }
  return states;
}
