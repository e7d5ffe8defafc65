import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { takeBackup } from './backups';
import { forgetCluster } from './etcd';
import { answers, clusterMembers, writePatroniConfig } from './patroni';
import { backupDirs } from './pgbackrest';
import { lsnBytes, type PostgresPaths } from './postgres';
import { isAlive, launch, processesWorkingIn, signalQuietly, waitUntil } from './processes';
import { type Component, type DatabaseNode, nodesOf, saveState, type TopologyState } from './state';
import {
  dbRoutesSettled,
  isHealthy,
  NODES,
  postgresPathsOf,
  restartComponent,
  stopComponent,
  surroundingsOf,
  takesWrites,
  waitUntilReady,
} from './topology';

/** How long restoring the files and replaying the WAL may take before `restore` gives up. */
const RESTORE_TIMEOUT_MS = 15 * 60_000;

export interface RestoreResult {
  /** The last transaction the restored cluster replayed (null when PostgreSQL no longer says). */
  readonly reached: Date | null;
  /** pgBackRest copying the backup's files (its own log's figure). */
  readonly filesMs: number | null;
  /** PostgreSQL's redo of the archived WAL, fetching included (its `redo done … elapsed` line). */
  readonly redoMs: number | null;
  /**
   * How far that redo went: from `redo starts at <lsn>` to `redo done at <lsn>`. A span of WAL
   * positions, so it counts the unused end of every segment switched early (archive_timeout).
   */
  readonly redoBytes: number | null;
  /** The WAL segments PostgreSQL fetched from the archive for it (`restored log file "<name>"`). */
  readonly walSegments: readonly string[];
  /** From the files in place to the restored node promoted: PostgreSQL's start, the redo, the promotion. */
  readonly replayMs: number | null;
  /** From the command to the service answering again. */
  readonly totalMs: number;
  /** Where that total went, step by step. */
  readonly stepsMs: RestoreSteps;
}

/** The steps of a restore, in order, each in ms. */
export interface RestoreSteps {
  /** The instances and the nodes stopped, etcd's keys and the data folders emptied. */
  readonly stop: number;
  /** The first node's Patroni started to it answering as primary: files, redo, promotion. */
  readonly restore: number;
  /** The incremental backup of the new timeline, for the replicas. */
  readonly backup: number;
  /** The replicas rebuilt from it and streaming, the database HAProxy settled, a write taken. */
  readonly replicas: number;
  /** The instances started again, the front HAProxy answering /ready. */
  readonly instances: number;
}

/**
 * While the primary answers: switches to a new WAL segment and waits until it is archived, so
 * the archive holds every commit up to now (a restore to a time of the last seconds finds it).
 */
export async function flushArchive(state: TopologyState): Promise<boolean> {
  if (!(await takesWrites(state))) return false;
  const client = new Client({ connectionString: state.urls.superuser, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ wal: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS wal');
    const switched = rows[0]?.wal ?? '';
    await waitUntil(
      async () => {
        const archived = await client.query<{ last: string | null }>(
          'SELECT last_archived_wal AS last FROM pg_stat_archiver',
        );
        return (archived.rows[0]?.last ?? '') >= switched;
      },
      60_000,
      `WAL ${switched} to be archived`,
    );
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Replaces the cluster with one restored from the repository, through Patroni: the instances and
 * every node stop, etcd forgets the cluster, the data folders are emptied; the first node
 * bootstraps with pgBackRest (to `to`, or to the end of the archive) and promotes itself; a
 * backup of the new timeline is taken (a replica restores the latest backup, which must be on
 * the history it follows); the other nodes rebuild from it as synchronous standbys; the
 * instances start again (no list cached from the lost history survives). Answers once the
 * service answers.
 */
export async function restore(state: TopologyState, repoRoot: string, to: Date | 'latest'): Promise<RestoreResult> {
  const startedAt = performance.now();
  let lapStartedAt = startedAt;
  const lap = () => {
    const now = performance.now();
    const ms = now - lapStartedAt;
    lapStartedAt = now;
    return ms;
  };
  const paths = postgresPathsOf(state, repoRoot);
  const patronis = state.components.filter((component) => component.node);
  const instances = state.components.filter((component) => component.kind === 'instance');
  await Promise.all(instances.map((component) => stopComponent(component)));
  await Promise.all(patronis.map((component) => stopComponent(component)));
  for (const node of nodesOf(state)) {
    for (const pid of processesWorkingIn(node.dataDir)) signalQuietly(pid, 'SIGKILL');
  }
  await waitUntil(
    async () => nodesOf(state).every((node) => processesWorkingIn(node.dataDir).length === 0),
    15_000,
    'the nodes to stop',
  );
  forgetCluster(state.etcdPort);
  for (const node of nodesOf(state)) emptyDataDir(paths, node);
  const stop = lap();

  const [first, ...others] = patronis as (Component & { node: DatabaseNode })[];
  if (!first) throw new Error('no node to restore');
  const around = surroundingsOf(state);
  writePatroniConfig(paths, first.node, around, state.passwords, {
    method: 'pgbackrest',
    ...(to !== 'latest' && { to }),
  });
  const logOffset = fileSize(first.launch.logFile);
  launchAgain(state, first);
  await waitUntil(
    async () => {
      if (!isAlive(first.pid)) throw new Error(`${first.node.name}'s Patroni exited`);
      return answers(first.node, '/primary');
    },
    RESTORE_TIMEOUT_MS,
    `${first.node.name} to restore and promote itself`,
  );
  const promotedAt = Date.now();
  const restoreMs = lap();
  const { reached, redoMs, redoBytes, walSegments } = replayOf(first.launch.logFile, logOffset);
  const files = lastRestoreFigures(state.postgresDir);
  // Back to initdb: the bootstrap section matters again only when etcd forgets the cluster.
  writePatroniConfig(paths, first.node, around, state.passwords);

  await takeBackup(state, 'incr');
  const backup = lap();
  for (const component of others) {
    // A replica rebuilt from the repository: its config names initdb, unused once the cluster exists.
    writePatroniConfig(paths, component.node, around, state.passwords);
    launchAgain(state, component);
  }
  const nodes = nodesOf(state);
  await waitUntil(async () => isHealthy(await clusterMembers(nodes), NODES), RESTORE_TIMEOUT_MS, 'the replicas');
  await waitUntil(async () => dbRoutesSettled(state.stateDir, NODES), 60_000, 'the database HAProxy');
  await waitUntil(async () => takesWrites(state), 60_000, 'the primary to take writes');
  const replicas = lap();
  for (const component of instances) await restartComponent(state, component);
  const front = state.components.find((component) => component.kind === 'haproxy');
  if (front) await waitUntilReady(front);
  return {
    reached,
    filesMs: files?.durationMs ?? null,
    redoMs,
    redoBytes,
    walSegments,
    replayMs: files ? promotedAt - files.endedAt : null,
    totalMs: performance.now() - startedAt,
    stepsMs: { stop, restore: restoreMs, backup, replicas, instances: lap() },
  };
}

/** Starts a node's Patroni again without waiting for it: a restore waits for the role it takes. */
function launchAgain(state: TopologyState, component: Component): void {
  component.pid = launch(component.launch);
  saveState(state);
}

const fileSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** An empty data folder (mode 0700, the postgres user's): pgBackRest restores into an existing folder. */
function emptyDataDir(paths: PostgresPaths, node: DatabaseNode): void {
  fs.rmSync(node.dataDir, { recursive: true, force: true });
  fs.mkdirSync(node.dataDir, { mode: 0o700 });
  if (paths.runAs) fs.chownSync(node.dataDir, paths.runAs.uid, paths.runAs.gid);
}

/**
 * What the restored node's PostgreSQL says of its replay in its log (written after
 * `fromOffset`): the time of the last transaction (`last completed transaction was at log time
 * <t>`), how long the redo took (`redo done at <lsn> … elapsed: <s> s`) and how much WAL it
 * went through (from `redo starts at <lsn>` to that `<lsn>`, the start of the last record), and
 * the WAL segments it fetched from the archive (`restored log file "<segment>" from archive`).
 * (pg_last_xact_replay_timestamp() would give the time too, but Patroni restarts PostgreSQL
 * after a custom bootstrap, which forgets it.)
 */
export function replayOf(
  logFile: string,
  fromOffset: number,
): Pick<RestoreResult, 'reached' | 'redoMs' | 'redoBytes' | 'walSegments'> {
  const text = fs.readFileSync(logFile, 'utf8').slice(fromOffset);
  const last = [...text.matchAll(/last completed transaction was at log time (\S+) (\S+?)([+-]\d{2})(\d{2})?$/gm)].at(
    -1,
  );
  const started = [...text.matchAll(/redo starts at ([0-9A-F]+\/[0-9A-F]+)/gm)].at(-1);
  const done = [...text.matchAll(/redo done at ([0-9A-F]+\/[0-9A-F]+) .* elapsed: ([\d.]+) s$/gm)].at(-1);
  return {
    reached: last ? new Date(`${last[1]}T${last[2]}${last[3]}:${last[4] ?? '00'}`) : null,
    redoMs: done ? Number(done[2]) * 1000 : null,
    redoBytes: started && done ? lsnBytes(done[1] as string) - lsnBytes(started[1] as string) : null,
    walSegments: [...text.matchAll(/restored log file "([0-9A-F]{24})" from archive/g)].map(
      (match) => match[1] as string,
    ),
  };
}

/**
 * The last restore's figures from pgBackRest's own log: how long copying the files took
 * (`restore command end: completed successfully (<n>ms)`) and when it ended (the line's stamp,
 * local time, as JavaScript reads a stamp without a zone).
 */
function lastRestoreFigures(postgresDir: string): { durationMs: number; endedAt: number } | null {
  const log = path.join(backupDirs(postgresDir).log, 'blog-restore.log');
  if (!fs.existsSync(log)) return null;
  const last = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.includes('restore command end: completed successfully'))
    .at(-1);
  const duration = last?.match(/\((\d+)ms\)/)?.[1];
  const stamp = last?.match(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3})/);
  if (!duration || !stamp) return null;
  return { durationMs: Number(duration), endedAt: new Date(`${stamp[1]}T${stamp[2]}`).getTime() };
}
