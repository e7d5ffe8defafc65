import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freeStablePort } from '../../test/support/free-port';
import { createStanzaAndFirstBackup } from './backups';
import { etcdComponent } from './etcd';
import { dbServerStates, haproxyComponent, haproxyDbComponent } from './haproxy';
import { instanceComponent, instanceEnv } from './instances';
import {
  createNetwork,
  hostAddress,
  networkUnavailableReason,
  nodeAddress,
  nodeNamespace,
  removeNetwork,
} from './network';
import {
  answers,
  type ClusterMember,
  clusterMembers,
  type NodeSurroundings,
  patroniComponent,
  postmasterPid,
  requestSwitchover,
} from './patroni';
import { createRepository } from './pgbackrest';
import { pgBouncerComponent } from './pgbouncer';
import { type Passwords, type PostgresPaths, setUpPrimary } from './postgres';
import {
  groupMembers,
  isAlive,
  launch,
  portIsTaken,
  postgresUserIfRoot,
  processesWorkingIn,
  signalQuietly,
  stopGroup,
  waitUntil,
} from './processes';
import type { TopologySettings } from './settings';
import {
  type Component,
  type ComponentKind,
  type DatabaseNode,
  loadState,
  nodesOf,
  saveState,
  type TopologyState,
} from './state';

/** How long a component may take to answer its readiness check after it was started. */
const READY_TIMEOUT_MS = 60_000;
/** How long a component may take to stop on its own signal before its group is killed. */
const STOP_GRACE_MS = 15_000;

/**
 * Brings the whole topology up: etcd, three PostgreSQL nodes under Patroni, the database
 * HAProxy, PgBouncer, the instances, the front HAProxy; answers once the front HAProxy answers
 * /ready with 200. On a topology already running from the same state directory, starts again
 * what is not running (a killed node rejoins as a replica). On failure of a fresh start, stops
 * what it had started and removes the state; the error carries the failing component's last
 * log lines.
 */
export async function up(settings: TopologySettings): Promise<TopologyState> {
  const existing = loadState(settings.stateDir);
  if (existing?.components.some((component) => isAlive(component.pid))) return repair(existing);
  if (existing) await down(settings.stateDir);
  if (await portIsTaken(settings.lbPort)) throw new Error(`TOPOLOGY_PORT ${settings.lbPort} is already in use`);
  ensureDebianPackages(settings.repoRoot);
  const main = path.join(settings.repoRoot, 'dist', 'src', 'main.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);

  const logDir = path.join(settings.stateDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const runAs = postgresUserIfRoot();
  // Directly under the temp dir, so the postgres user reaches it whatever TOPOLOGY_DIR is.
  const postgresDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-pg-'));
  if (runAs) fs.chownSync(postgresDir, runAs.uid, runAs.gid);
  const paths: PostgresPaths = { repoRoot: settings.repoRoot, postgresDir, logDir, runAs };

  const ports = {
    etcd: await freeStablePort(),
    etcdPeer: await freeStablePort(),
    dbPrimary: await freeStablePort(),
    dbReplica: await freeStablePort(),
    pgbouncer: await freeStablePort(),
    instances: await Promise.all(Array.from({ length: settings.instances }, () => freeStablePort())),
  };
  const passwords: Passwords = { superuser: secret(), app: secret(), replicator: secret() };
  const url = (user: string, password: string, port: number, database: string) =>
    `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
  const state: TopologyState = {
    stateDir: settings.stateDir,
    postgresDir,
    lbUrl: `http://127.0.0.1:${settings.lbPort}`,
    etcdPort: ports.etcd,
    urls: {
      app: url('blog', passwords.app, ports.pgbouncer, 'blog'),
      appReplica: url('blog', passwords.app, ports.pgbouncer, 'blog_replica'),
      primaryDirect: url('blog', passwords.app, ports.dbPrimary, 'blog'),
      replicaDirect: url('blog', passwords.app, ports.dbReplica, 'blog'),
      superuser: url('postgres', passwords.superuser, ports.dbPrimary, 'postgres'),
    },
    passwords,
    components: [],
  };
  saveState(state);
  createRepository(paths);

  try {
    const network = settings.nodeNetwork && networkUnavailableReason() === null ? createNetwork(NODES) : undefined;
    if (network) {
      Object.assign(state, { network });
      saveState(state);
    }
    await start(
      state,
      etcdComponent(
        settings.repoRoot,
        settings.stateDir,
        logDir,
        { client: ports.etcd, peer: ports.etcdPeer },
        network && hostAddress(network),
      ),
    );
    const nodes: DatabaseNode[] = [];
    for (let number = 1; number <= NODES; number++) {
      nodes.push({
        name: `node${number}`,
        number,
        host: network ? nodeAddress(network, number) : '127.0.0.1',
        restPort: await freeStablePort(),
        pgPort: await freeStablePort(),
        dataDir: path.join(postgresDir, `node${number}`),
        ...(network && { namespace: nodeNamespace(network, number) }),
      });
    }
    const around = surroundingsOf(state);
    // All three at once: one wins the initialise key in etcd and runs initdb, the others wait
    // for it and clone it (pg_basebackup). Strict synchronous mode takes no write before a
    // standby streams, so `up` waits for the synchronous standby before setting up the roles.
    await Promise.all(nodes.map((node) => start(state, patroniComponent(paths, node, around, passwords))));
    await waitUntil(
      async () => isHealthy(await clusterMembers(nodes), NODES),
      READY_TIMEOUT_MS,
      'a leader, a synchronous standby and a replica',
    );
    await start(
      state,
      haproxyDbComponent(
        settings.repoRoot,
        settings.stateDir,
        logDir,
        { primary: ports.dbPrimary, replica: ports.dbReplica },
        nodes,
        state.urls.superuser,
      ),
    );
    // Servers count as up until their first checks: wait until they name one primary.
    await waitUntil(
      async () => dbRoutesSettled(state.stateDir, NODES),
      READY_TIMEOUT_MS,
      'the database HAProxy to find the primary',
    );
    await setUpPrimary(paths, state.urls.superuser, passwords);

    const login = { user: 'blog', password: passwords.app, database: 'blog' };
    await start(
      state,
      pgBouncerComponent(
        paths,
        { pgbouncer: ports.pgbouncer, primary: ports.dbPrimary, replica: ports.dbReplica },
        login,
        state.urls.app,
      ),
    );

    const databases = { writeUrl: state.urls.app, readUrl: state.urls.appReplica };
    // Once, before the instances, so that they do not race to migrate.
    execFileSync(process.execPath, [path.join(settings.repoRoot, 'dist', 'src', 'migrate.js')], {
      cwd: settings.repoRoot,
      env: instanceEnv(settings, databases),
      stdio: 'pipe',
    });
    // The stanza, and a first full backup to restore from, once the schema is in.
    await createStanzaAndFirstBackup(state);
    await Promise.all(
      ports.instances.map((port, index) =>
        start(state, instanceComponent(settings, databases, port, index + 1, logDir)),
      ),
    );
    await start(
      state,
      haproxyComponent(settings.repoRoot, settings.stateDir, logDir, settings.lbPort, ports.instances),
    );
    return state;
  } catch (error) {
    await down(settings.stateDir);
    throw error;
  }
}

/** Where every node's Patroni finds etcd, and the network its PostgreSQL lets in. */
export function surroundingsOf(state: TopologyState): NodeSurroundings {
  return {
    etcdHost: state.network ? hostAddress(state.network) : '127.0.0.1',
    etcdPort: state.etcdPort,
    clients: state.network ? `${state.network.subnet}.0/24` : '127.0.0.1/32',
  };
}

/** The folders and the user of the nodes' PostgreSQL (the same as at `up`). */
export function postgresPathsOf(state: TopologyState, repoRoot: string): PostgresPaths {
  return {
    repoRoot,
    postgresDir: state.postgresDir,
    logDir: path.join(state.stateDir, 'logs'),
    runAs: postgresUserIfRoot(),
  };
}

/** Three nodes: with two, strict synchronous mode stops every write as soon as one is lost. */
export const NODES = 3;

/** One leader, one synchronous standby, and every other member streaming (or running) as a replica. */
export function isHealthy(members: readonly ClusterMember[], nodes: number): boolean {
  const running = (member: ClusterMember) => member.state === 'running' || member.state === 'streaming';
  return (
    members.length === nodes &&
    members.every(running) &&
    members.filter((member) => member.role === 'leader').length === 1 &&
    members.some((member) => member.role === 'sync_standby')
  );
}

/**
 * `up` on a running topology: every component whose process is gone is started again, in start
 * order, with its recorded command and config. A node's leftovers (an orphaned postmaster or
 * backend still in its data folder) are killed first; its Patroni then rewinds it if needed and
 * it rejoins as a replica.
 */
async function repair(state: TopologyState): Promise<TopologyState> {
  for (const component of state.components) {
    if (isAlive(component.pid)) continue;
    if (component.node) {
      for (const pid of processesWorkingIn(component.node.dataDir)) signalQuietly(pid, 'SIGKILL');
    }
    await restartComponent(state, component);
  }
  return state;
}

/** Whether the database HAProxy routes to exactly one primary and to every other node as a replica. */
export async function dbRoutesSettled(stateDir: string, nodes: number): Promise<boolean> {
  // The backup servers (`<node>-ro`, the replicas standing in) are neither the primary nor a synchronous standby.
  const primary = [...(await dbServerStates(stateDir, 'primary')).entries()]
    .filter(([name]) => !name.endsWith('-ro'))
    .map(([, status]) => status);
  const replicas = [...(await dbServerStates(stateDir, 'replicas')).entries()]
    .filter(([name]) => !name.endsWith('-ro'))
    .map(([, status]) => status);
  const up = (states: string[]) => states.filter((status) => status === 'UP').length;
  const down = (states: string[]) => states.filter((status) => status === 'DOWN').length;
  return up(primary) === 1 && down(primary) === nodes - 1 && up(replicas) === nodes - 1 && down(replicas) === 1;
}

export { nodesOf };

/** `primary <pid> <pg_port>` or `replica <pid> <pg_port>` for each node whose postmaster runs, by its current role. */
export async function roleLines(state: TopologyState): Promise<string[]> {
  const lines: string[] = [];
  for (const node of nodesOf(state)) {
    const pid = postmasterPid(node);
    if (pid === null) continue;
    if (await answers(node, '/primary')) lines.push(`primary ${pid} ${node.pgPort}`);
    else if (await answers(node, '/replica')) lines.push(`replica ${pid} ${node.pgPort}`);
  }
  return lines;
}

/**
 * A planned switchover: the leader hands over to the synchronous standby (Patroni's POST
 * /switchover); answers once the new primary, reached through the database HAProxy, takes a
 * synchronously replicated write.
 */
export async function switchover(state: TopologyState): Promise<{ from: string; to: string }> {
  const nodes = nodesOf(state);
  const members = await clusterMembers(nodes);
  const leader = nodes.find((node) => members.some((m) => m.name === node.name && m.role === 'leader'));
  if (!leader) throw new Error('no leader to switch over from');
  await requestSwitchover(leader);
  await waitUntil(
    async () => {
      const now = await clusterMembers(nodes);
      return now.some((m) => m.role === 'leader' && m.name !== leader.name) && (await takesWrites(state));
    },
    READY_TIMEOUT_MS,
    'the new primary to take writes',
  );
  const to = (await clusterMembers(nodes)).find((m) => m.role === 'leader')?.name ?? '?';
  return { from: leader.name, to };
}

/** Whether a write (a transaction id, committed and synchronously replicated) succeeds through the primary port. */
export async function takesWrites(state: TopologyState): Promise<boolean> {
  const client = new Client({ connectionString: state.urls.superuser, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query("SET statement_timeout = '2s'");
    await client.query('SELECT txid_current()');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts a component's process, records it, and waits until it answers its readiness check. */
async function start(state: TopologyState, spec: Omit<Component, 'pid'>): Promise<Component> {
  const component: Component = { ...spec, pid: launch(spec.launch) };
  state.components.push(component);
  saveState(state);
  await waitUntilReady(component);
  return component;
}

/** Waits for the component's readiness check; on timeout or death, the error quotes its log. */
export async function waitUntilReady(component: Component, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  try {
    await waitUntil(
      async () => {
        if (!isAlive(component.pid)) throw new Error(`${component.kind} (pid ${component.pid}) exited`);
        return answersReadiness(component);
      },
      timeoutMs,
      `${component.kind} on port ${component.port}`,
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n--- last lines of ${component.launch.logFile}:\n${tail(component.launch.logFile)}`,
    );
  }
}

async function answersReadiness(component: Component): Promise<boolean> {
  const check = component.ready;
  if (check.type === 'http') {
    const response = await fetch(check.url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  }
  const client = new Client({ connectionString: check.url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(check.sql);
    return rows[0]?.ok === true;
  } finally {
    await client.end();
  }
}

/** The running and stopped components; null when nothing was brought up there. */
export function status(stateDir: string): { state: TopologyState; running: Component[]; stopped: Component[] } | null {
  const state = loadState(stateDir);
  if (!state) return null;
  return {
    state,
    running: state.components.filter((component) => isAlive(component.pid)),
    stopped: state.components.filter((component) => !isAlive(component.pid)),
  };
}

/** Stops every component, last started first, waits until no process of theirs is left, removes the state. */
export async function down(stateDir: string): Promise<void> {
  const state = loadState(stateDir);
  if (state) {
    const order: ComponentKind[] = ['haproxy', 'instance', 'pgbouncer', 'haproxy-db', 'patroni', 'etcd'];
    for (const kind of order) {
      await Promise.all(
        state.components.filter((c) => c.kind === kind).map((c) => stopGroup(c.pid, c.stopSignal, STOP_GRACE_MS)),
      );
    }
    // A postmaster runs in a session of its own (Patroni starts it so): one left by a killed
    // Patroni is found by its working directory.
    for (const pid of processesWorkingIn(state.postgresDir)) signalQuietly(pid, 'SIGKILL');
    await waitUntil(
      async () => processesWorkingIn(state.postgresDir).length === 0,
      STOP_GRACE_MS,
      'PostgreSQL processes to end',
    );
    if (state.network) removeNetwork(state.network);
    fs.rmSync(state.postgresDir, { recursive: true, force: true });
  }
  fs.rmSync(stateDir, { recursive: true, force: true });
}

/**
 * Every process of the topology still alive: those it launched and their own, and any process
 * working in its folders (an orphaned PostgreSQL backend would be). After `down`, none.
 */
export function leftoverProcesses(state: TopologyState): number[] {
  const pids = new Set([
    ...state.components.flatMap((component) => groupMembers(component.pid)),
    ...processesWorkingIn(state.postgresDir),
    ...processesWorkingIn(state.stateDir),
  ]);
  return [...pids];
}

/** Stops one component with a chosen signal (a fault: SIGKILL, an immediate PostgreSQL stop...). */
export async function stopComponent(
  component: Component,
  signal: NodeJS.Signals = component.stopSignal,
): Promise<void> {
  await stopGroup(component.pid, signal, STOP_GRACE_MS);
}

/** Starts a stopped component again with the same command, port and config; waits until it is ready. */
export async function restartComponent(state: TopologyState, component: Component): Promise<void> {
  if (isAlive(component.pid)) await stopComponent(component);
  component.pid = launch(component.launch);
  saveState(state);
  await waitUntilReady(component);
}

function ensureDebianPackages(repoRoot: string): void {
  execFileSync(
    'bash',
    [
      path.join(repoRoot, 'scripts', 'ensure-debian-packages.sh'),
      'haproxy=haproxy',
      'pgbouncer=pgbouncer',
      '/usr/lib/postgresql/15/bin/postgres=postgresql-15',
      'patroni=patroni',
      'etcd=etcd-server',
      'etcdctl=etcd-client',
      'iptables=iptables',
      'pgbackrest=pgbackrest',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

const secret = () => randomBytes(16).toString('hex');

function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
