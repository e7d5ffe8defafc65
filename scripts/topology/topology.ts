import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../test/support/free-port';
import { haproxyComponent } from './haproxy';
import { instanceComponent, instanceEnv } from './instances';
import { pgBouncerComponent } from './pgbouncer';
import {
  initPrimary,
  initReplica,
  type Passwords,
  type PostgresPaths,
  postgresComponent,
  setUpPrimary,
} from './postgres';
import {
  groupMembers,
  isAlive,
  launch,
  portIsTaken,
  postgresUserIfRoot,
  processesWorkingIn,
  stopGroup,
  waitUntil,
} from './processes';
import type { TopologySettings } from './settings';
import { type Component, type ComponentKind, loadState, saveState, type TopologyState } from './state';

/** How long a component may take to answer its readiness check after it was started. */
const READY_TIMEOUT_MS = 60_000;
/** How long a component may take to stop on its own signal before its group is killed. */
const STOP_GRACE_MS = 15_000;

/**
 * Brings the whole topology up: primary, replica, PgBouncer, the instances, HAProxy; answers
 * once HAProxy answers /ready with 200. On failure, stops what it had started and removes the
 * state, and the error carries the failing component's last log lines.
 */
export async function up(settings: TopologySettings): Promise<TopologyState> {
  const existing = loadState(settings.stateDir);
  if (existing?.components.some((component) => isAlive(component.pid))) {
    throw new Error(`a topology is already running from ${settings.stateDir}; run "down" first`);
  }
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
    primary: await freePort(),
    replica: await freePort(),
    pgbouncer: await freePort(),
    instances: await Promise.all(Array.from({ length: settings.instances }, () => freePort())),
  };
  const passwords: Passwords = { superuser: secret(), app: secret(), replicator: secret() };
  const url = (user: string, password: string, port: number, database: string) =>
    `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
  const state: TopologyState = {
    stateDir: settings.stateDir,
    postgresDir,
    lbUrl: `http://127.0.0.1:${settings.lbPort}`,
    urls: {
      app: url('blog', passwords.app, ports.pgbouncer, 'blog'),
      appReplica: url('blog', passwords.app, ports.pgbouncer, 'blog_replica'),
      primaryDirect: url('blog', passwords.app, ports.primary, 'blog'),
      replicaDirect: url('blog', passwords.app, ports.replica, 'blog'),
      superuser: url('postgres', passwords.superuser, ports.primary, 'postgres'),
    },
    components: [],
  };
  saveState(state);

  try {
    const primaryDir = path.join(postgresDir, 'primary');
    initPrimary(paths, primaryDir, ports.primary, passwords);
    await start(state, postgresComponent('primary', paths, primaryDir, ports.primary, state.urls.superuser));
    await setUpPrimary(paths, state.urls.superuser, passwords);

    const replicaDir = path.join(postgresDir, 'replica');
    initReplica(paths, replicaDir, ports.replica, ports.primary, passwords);
    const replicaSuperuser = url('postgres', passwords.superuser, ports.replica, 'postgres');
    await start(state, postgresComponent('replica', paths, replicaDir, ports.replica, replicaSuperuser));

    const login = { user: 'blog', password: passwords.app, database: 'blog' };
    await start(state, pgBouncerComponent(paths, ports, login, state.urls.app));

    const databases = { writeUrl: state.urls.app, readUrl: state.urls.appReplica };
    // Once, before the instances, so that they do not race to migrate.
    execFileSync(process.execPath, [path.join(settings.repoRoot, 'dist', 'src', 'migrate.js')], {
      cwd: settings.repoRoot,
      env: instanceEnv(settings, databases),
      stdio: 'pipe',
    });
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

/** The running components' `<kind> <pid> <port>` lines; null when nothing was brought up there. */
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
    const order: ComponentKind[] = ['haproxy', 'instance', 'pgbouncer', 'replica', 'primary'];
    for (const kind of order) {
      await Promise.all(
        state.components.filter((c) => c.kind === kind).map((c) => stopGroup(c.pid, c.stopSignal, STOP_GRACE_MS)),
      );
    }
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
