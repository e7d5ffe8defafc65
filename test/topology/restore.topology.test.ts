import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { listBackups, takeBackup } from '../../scripts/topology/backups';
import { clusterMembers, killNode, postmasterPid } from '../../scripts/topology/patroni';
import { waitUntil } from '../../scripts/topology/processes';
import { flushArchive } from '../../scripts/topology/restore';
import { REPO_ROOT, settingsFromEnv, type TopologySettings } from '../../scripts/topology/settings';
import { loadState, type TopologyState } from '../../scripts/topology/state';
import { down, isHealthy, NODES, nodesOf, takesWrites, up } from '../../scripts/topology/topology';
import { freePort } from '../support/free-port';
import { countAnomalies } from '../support/history/anomaly';
import { checkHistory } from '../support/history/check-history';
import { CUT_AT_POINT, historyUpTo } from '../support/history/history-at';
import { historyFigures } from '../support/history/history-figures';
import { readPrimaryArticles } from '../support/history/primary-articles';
import { TOPOLOGY_READ_STALENESS_MS } from '../support/history/replica-staleness';
import { FailoverLoad, type KeyedCreate, TWENTY_CLIENTS } from '../support/load/failover-load';
import type { RequestRecord } from '../support/load/request-log';
import { gapsAcrossFork, readWalArchive, segmentOfWalFile } from '../support/wal-archive';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'dist', 'scripts', 'topology', 'cli.js');
/** Traffic before the backup, between the backup and T, and after T. */
const PHASE_MS = 5_000;
/** From T to the leader's death: T in the old timeline's last seconds. */
const BEFORE_FAILOVER_MS = 1_500;
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/topology');

/** One figure line per restore, printed at the end (docs/RELIABILITY.md and deploy/README.md quote them). */
const figures: string[] = [];

/**
 * The restore drill (issue 28): the topology of `npm run topology` under 20 clients (10 creating
 * with Idempotency-Key, 10 reading), a backup taken under load, writes going on; every article
 * deleted, then `restore --to T`: what was acknowledged before T is back whole, what was sent
 * after T is absent, keys claimed before T replay. Then every node lost (killed, data folders
 * deleted) and `restore --to latest`: what the archive had, and what it had not (the recovery
 * point). Between the two, T just before a failover (the leader killed): the archive goes on
 * across the timelines, `latest` reaches past the failover and `--to T` stops on the old timeline. After each restore
 * the whole history of the drill's requests, cut at the point restored to, shows no anomaly.
 * Restores run through the command (`npm run topology -- restore`), as an operator would.
 */
describe('topology restore drill', () => {
  let settings: TopologySettings;
  let state: TopologyState;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  /** Every request of the drill's loads, as the cluster restored last knows them (historyUpTo). */
  let history: RequestRecord[] = [];

  beforeAll(async () => {
    // The command runs from dist/, as `npm run topology` builds it (npm run test:topology builds src/ only).
    execFileSync('npx', ['tsc', '-p', 'tsconfig.topology.json'], { cwd: REPO_ROOT, stdio: 'pipe' });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-restore-'));
    const port = String(await freePort());
    env = { ...process.env, TOPOLOGY_DIR: path.join(workDir, 'state'), TOPOLOGY_PORT: port, INSTANCES: '2' };
    settings = settingsFromEnv(env);
    state = await up(settings);
  }, 300_000);

  afterAll(async () => {
    if (state) {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      fs.cpSync(path.join(state.stateDir, 'logs'), path.join(ARTIFACTS, 'restore-logs'), { recursive: true });
      fs.cpSync(path.join(state.postgresDir, 'pgbackrest', 'log'), path.join(ARTIFACTS, 'restore-logs', 'pgbackrest'), {
        recursive: true,
      });
      await down(state.stateDir);
    }
    fs.rmSync(workDir, { recursive: true, force: true });
    console.log(figures.join('\n'));
  }, 120_000);

  const topology = (...args: string[]) => run(process.execPath, [CLI, ...args], { env, maxBuffer: 1 << 20 });

  /**
   * `restore --to <to>` through the command, then the state it wrote: the restore starts every
   * Patroni again, and a pid kept from before would have a kill miss the node (or hit another process).
   */
  async function restoreTo(to: string) {
    const result = await topology('restore', '--to', to);
    const restored = loadState(settings.stateDir);
    if (!restored) throw new Error(`no topology state in ${settings.stateDir} after the restore`);
    state = restored;
    return result;
  }

  it('the cluster came up archiving, with a full backup; status lists it', async () => {
    const [first] = listBackups(state);
    expect(first?.type).toBe('full');
    const { stdout } = await topology('status');
    expect(stdout).toMatch(/^backup \d{8}-\d{6}F full \d{4}-\d{2}-\d{2}T[\d:.]+Z$/m);
    expect(stdout).toMatch(/^wal [0-9A-F]{24} archived [\d.]+ s ago$/m);
  }, 60_000);

  it('refuses bad arguments with one line and exit 2, changing nothing', async () => {
    const before = { backups: listBackups(state).length, leader: await leaderPid() };
    const firstEnd = listBackups(state)[0]?.endedAt ?? new Date();
    const cases: string[][] = [
      ['restore', '--to', new Date(firstEnd.getTime() - 60_000).toISOString()],
      ['restore', '--to', new Date(Date.now() + 3_600_000).toISOString()],
      ['restore', '--to', 'yesterday'],
      ['restore'],
      ['restore', '--at', 'latest'],
      ['backup', '--type', 'weekly'],
      ['status', '--to', 'latest'],
    ];
    for (const args of cases) {
      const failure = await topology(...args).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect({ args, code: failure?.code }).toEqual({ args, code: 2 });
      expect(failure?.stderr.trim().split('\n')[0]).toMatch(/^topology: \S/);
    }
    expect({ backups: listBackups(state).length, leader: await leaderPid() }).toEqual(before);
  }, 120_000);

  it('restores to a time T under load: acknowledged before T back whole, sent after T absent, keys before T replay', async () => {
    const runId = `pitr${Date.now().toString(36)}`;
    const load = new FailoverLoad({
      baseUrl: state.lbUrl,
      runId,
      ...TWENTY_CLIENTS,
    }).start();
    await sleep(PHASE_MS);
    const backup = await takeBackup(state, 'incr');
    await sleep(PHASE_MS);
    const target = new Date();
    await sleep(PHASE_MS);
    history.push(...(await load.stop()));

    // The loss: every article, every key and every term, deleted on the primary.
    await onPrimary(state, 'TRUNCATE articles, tags, categories, idempotency_keys CASCADE');
    expect(await storedArticles(state, runId)).toEqual([]);

    const { stdout } = await restoreTo(target.toISOString());
    const reached = restoredTime(stdout);
    const checked = await checkRestoredHistory(target);
    figures.push(
      `restore to T (backup ${backup.label}, T ${PHASE_MS / 1000} s after it): ${figureLine(stdout)}; reached ${reached?.toISOString()} for T ${target.toISOString()}; ${checked.line}`,
    );
    expect(reached).not.toBeNull();
    expect(reached?.getTime()).toBeLessThanOrEqual(target.getTime());
    expect(isHealthy(await clusterMembers(nodesOf(state)), NODES)).toBe(true);
    const before = await expectRestoredTo(target, load.keys, runId);
    expect(checked.anomalies).toEqual([]);

    // A key claimed before T replays its article (the service answers it again, it does not create another).
    for (const key of before.filter((_, index) => index % 10 === 0)) {
      const response = await fetch(`${state.lbUrl}/article/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key.key },
        body: JSON.stringify(key.body),
      });
      const answer = (await response.json()) as { data: { id: number } };
      expect({ key: key.key, status: response.status, replayed: response.headers.get('idempotent-replayed') }).toEqual({
        key: key.key,
        status: 201,
        replayed: 'true',
      });
      expect(Number(answer.data.id)).toBe(key.ackedId);
    }
  }, 600_000);

  it('restores to a time T just before a failover: the archive goes on across timelines, latest reaches past it, T stops before it', async () => {
    const runId = `tl${Date.now().toString(36)}`;
    const load = new FailoverLoad({
      baseUrl: state.lbUrl,
      runId,
      ...TWENTY_CLIENTS,
    }).start();
    // The load stops whatever happens: left running, it would write into the next case.
    const { target, targetWal, from, to, failedOverAt } = await targetThenFailover().finally(async () => {
      history.push(...(await load.stop()));
    });
    expect(await flushArchive(state)).toBe(true);
    const archive = readWalArchive(state.postgresDir);
    const timeline = Math.max(...archive.forks.keys());
    const fork = archive.forks.get(timeline);
    figures.push(
      `failover ${from} killed ${BEFORE_FAILOVER_MS / 1000} s after T, ${to} taking writes ${((failedOverAt - target.getTime()) / 1000).toFixed(1)} s after: ` +
        `T in WAL ${targetWal}, timeline ${timeline} forked from ${fork?.parent} in segment ${fork?.segment.toString(16).toUpperCase()}; ` +
        `archive gaps ${JSON.stringify(gapsAcrossFork(archive, timeline))}`,
    );
    expect(gapsAcrossFork(archive, timeline)).toEqual([]);
    expect(segmentOfWalFile(targetWal)).toBe(fork?.segment);
    // The dead primary never archived that segment whole: only the new timeline's copy holds T.
    expect(archive.segments.get(fork?.parent ?? 0)).not.toContain(fork?.segment);

    // latest first: a restore promotes onto a timeline of its own, and latest follows the newest
    // timeline, so after the restore to T it would end at T, never past the failover.
    const latest = await restoreTo('latest');
    const reachedLatest = restoredTime(latest.stdout);
    expect(reachedLatest).not.toBeNull();
    const checkedLatest = await checkRestoredHistory(reachedLatest ?? new Date(0));
    const storedLatest = new Map((await storedArticles(state, runId)).map((row) => [row.title, row]));
    const ackedOnNewTimeline = load.keys.filter(
      (key) => key.ackedAt !== null && key.ackedAt > failedOverAt && key.ackedAt < (reachedLatest?.getTime() ?? 0),
    );
    figures.push(
      `restore to latest after the failover: ${figureLine(latest.stdout)}; reached ${reachedLatest?.toISOString()}, ` +
        `${(((reachedLatest?.getTime() ?? 0) - failedOverAt) / 1000).toFixed(1)} s past the failover, ` +
        `${ackedOnNewTimeline.length} writes acknowledged on the new timeline before it; ${checkedLatest.line}`,
    );
    expect(reachedLatest?.getTime()).toBeGreaterThan(failedOverAt);
    expect(ackedOnNewTimeline.length).toBeGreaterThan(20);
    expect(
      ackedOnNewTimeline.filter((key) => !isWhole(storedLatest.get(`fo ${key.key}`), key)).map((key) => key.key),
    ).toEqual([]);
    expect(checkedLatest.anomalies).toEqual([]);

    const { stdout } = await restoreTo(target.toISOString());
    const reached = restoredTime(stdout);
    const checked = await checkRestoredHistory(target);
    figures.push(
      `restore to T ${BEFORE_FAILOVER_MS / 1000} s before a failover: ${figureLine(stdout)}; ` +
        `reached ${reached?.toISOString()} for T ${target.toISOString()}; ${checked.line}`,
    );
    expect(reached).not.toBeNull();
    expect(reached?.getTime()).toBeLessThanOrEqual(target.getTime());
    expect(isHealthy(await clusterMembers(nodesOf(state)), NODES)).toBe(true);
    await expectRestoredTo(target, load.keys, runId);
    expect(checked.anomalies).toEqual([]);
  }, 600_000);

  it('every node lost: restores to latest and reports the recovery point', async () => {
    const runId = `lost${Date.now().toString(36)}`;
    const load = new FailoverLoad({
      baseUrl: state.lbUrl,
      runId,
      ...TWENTY_CLIENTS,
    }).start();
    await sleep(2 * PHASE_MS);
    // Every node at once: Patroni, postmaster and backends killed, then every data folder deleted.
    const lostAt = Date.now();
    for (const component of state.components.filter((c) => c.node)) killNode(component);
    for (const node of nodesOf(state)) fs.rmSync(node.dataDir, { recursive: true, force: true });
    history.push(...(await load.stop()));

    const { stdout } = await restoreTo('latest');
    const reached = restoredTime(stdout);
    expect(reached).not.toBeNull();
    const checked = await checkRestoredHistory(reached ?? new Date(0));
    expect(isHealthy(await clusterMembers(nodesOf(state)), NODES)).toBe(true);

    const stored = new Map((await storedArticles(state, runId)).map((row) => [row.title, row]));
    const acked = load.keys.filter((key) => key.ackedAt !== null && key.ackedAt <= lostAt);
    const lost = acked.filter((key) => !stored.has(`fo ${key.key}`));
    const lastAcked = Math.max(...acked.map((key) => key.ackedAt ?? 0));
    figures.push(
      `restore to latest after every node lost: ${figureLine(stdout)}; reached ${reached?.toISOString()}, ` +
        `${lost.length} of ${acked.length} acknowledged writes lost, ` +
        `${((lastAcked - (reached?.getTime() ?? lastAcked)) / 1000).toFixed(1)} s between the last acknowledged write and the point reached; ` +
        checked.line,
    );
    expect(checked.anomalies).toEqual([]);
    // What was restored is a prefix of the history: every write acknowledged before the point reached is there, whole.
    const beforeReached = acked.filter((key) => (key.ackedAt ?? 0) < (reached?.getTime() ?? 0));
    expect(beforeReached.filter((key) => !isWhole(stored.get(`fo ${key.key}`), key)).map((key) => key.key)).toEqual([]);
    // The archive ends at most one archive_timeout (5 s) and one segment's push before the loss.
    expect(lastAcked - (reached?.getTime() ?? 0)).toBeLessThan(10_000);
    expect((await fetch(`${state.lbUrl}/ready`)).status).toBe(200);
  }, 600_000);

  /**
   * The drill's history cut at the point the cluster was restored to (what happened after it never
   * happened there), checked against every article the restored primary holds.
   */
  async function checkRestoredHistory(point: Date) {
    const recorded = history.length;
    history = historyUpTo(history, point);
    const anomalies = checkHistory(history, await readPrimaryArticles(state.urls.primaryDirect), {
      staleWithinMs: TOPOLOGY_READ_STALENESS_MS,
    });
    const cut = `${recorded - history.length} dropped, ${history.filter((r) => r.failure === CUT_AT_POINT).length} unknown`;
    const line = `history ${JSON.stringify(historyFigures(history))} (cut: ${cut}), anomalies ${JSON.stringify(countAnomalies(anomalies))}`;
    return { anomalies, line };
  }

  /**
   * After a restore to `target`: every key acknowledged before it is back whole, none sent after
   * it is stored, no title twice. (Sent before T and acknowledged after it: either, never twice.)
   * Answers the keys acknowledged before T.
   */
  async function expectRestoredTo(target: Date, keys: readonly KeyedCreate[], runId: string): Promise<KeyedCreate[]> {
    const stored = await storedArticles(state, runId);
    const byTitle = new Map(stored.map((row) => [row.title, row]));
    const before = keys.filter((key) => key.ackedAt !== null && key.ackedAt < target.getTime());
    const after = keys.filter((key) => key.invokedAt !== null && key.invokedAt > target.getTime());
    expect(before.length).toBeGreaterThan(50);
    expect(after.length).toBeGreaterThan(50);
    expect(before.filter((key) => !isWhole(byTitle.get(`fo ${key.key}`), key)).map((key) => key.key)).toEqual([]);
    expect(after.filter((key) => byTitle.has(`fo ${key.key}`)).map((key) => key.key)).toEqual([]);
    expect(stored.length).toBe(byTitle.size);
    return before;
  }

  /**
   * Under load: T in a fresh segment, the leader killed BEFORE_FAILOVER_MS later, writes on the
   * new timeline for PHASE_MS. A fresh segment at T, the one before it archived: no
   * archive_timeout (5 s) switch comes before the leader dies, and a killed primary does not
   * switch on its way out (a clean shutdown, as in a switchover, would), so T's writes are in the
   * segment the new timeline forks in, which the archive holds on the old timeline only as a
   * .partial: the restore to T must read it from the new timeline's copy.
   */
  async function targetThenFailover() {
    await sleep(PHASE_MS);
    expect(await flushArchive(state)).toBe(true);
    const target = new Date();
    const targetWal = await currentWalFile(state);
    await sleep(BEFORE_FAILOVER_MS);
    const { from, to } = await killLeader();
    const failedOverAt = Date.now();
    await sleep(PHASE_MS);
    return { target, targetWal, from, to, failedOverAt };
  }

  /** The leader's node killed (Patroni and PostgreSQL, SIGKILL); answers once another node is leader and takes writes. */
  async function killLeader(): Promise<{ from: string; to: string }> {
    const leaderName = async () => (await clusterMembers(nodesOf(state))).find((m) => m.role === 'leader')?.name;
    const from = await leaderName();
    const patroni = state.components.find((component) => component.node && component.node.name === from);
    if (!from || !patroni) throw new Error('no leader to kill');
    killNode(patroni);
    let to: string | undefined;
    await waitUntil(
      async () => {
        to = await leaderName();
        return to !== undefined && to !== from && (await takesWrites(state));
      },
      90_000,
      'a new leader taking writes',
    );
    return { from, to: to ?? '?' };
  }

  /** The postmaster pid of the leader: a refused command must not have touched the cluster. */
  async function leaderPid(): Promise<number | null> {
    const leader = (await clusterMembers(nodesOf(state))).find((member) => member.role === 'leader');
    const node = nodesOf(state).find((candidate) => candidate.name === leader?.name);
    return node ? postmasterPid(node) : null;
  }
});

/** `restored <ISO time>`, the command's first line. */
function restoredTime(stdout: string): Date | null {
  const time = stdout.match(/^restored (\S+)$/m)?.[1];
  return time && time !== 'unknown' ? new Date(time) : null;
}

/** The command's second line: files, WAL replay and total time. */
const figureLine = (stdout: string) => stdout.match(/^restore files .*$/m)?.[0] ?? '(no figures)';

/** The primary's current WAL file (as the superuser, through the database HAProxy): the segment a moment's writes are in. */
async function currentWalFile(state: TopologyState): Promise<string> {
  const client = new Client({ connectionString: state.urls.superuser });
  await client.connect();
  try {
    const { rows } = await client.query<{ wal: string }>('SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal');
    return rows[0]?.wal ?? '?';
  } finally {
    await client.end();
  }
}

async function onPrimary(state: TopologyState, sql: string): Promise<void> {
  const client = new Client({ connectionString: state.urls.primaryDirect });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface StoredArticle {
  title: string;
  id: number;
  content: string;
  tags: string[];
  categories: string[];
}

/** The run's articles on the primary, with their terms' names (no pooler, no service). */
async function storedArticles(state: TopologyState, runId: string): Promise<StoredArticle[]> {
  const client = new Client({ connectionString: state.urls.primaryDirect });
  await client.connect();
  try {
    const { rows } = await client.query<StoredArticle>(
      `SELECT a.title, a.id::int AS id, a.content,
         ARRAY(SELECT t.name FROM article_tags l JOIN tags t ON t.id = l.tag_id WHERE l.article_id = a.id ORDER BY t.name) AS tags,
         ARRAY(SELECT c.name FROM article_categories l JOIN categories c ON c.id = l.category_id WHERE l.article_id = a.id ORDER BY c.name) AS categories
       FROM articles a WHERE a.title LIKE $1`,
      [`fo ${runId}%`],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** Stored as the client sent it and under the id it was acknowledged with. */
function isWhole(row: StoredArticle | undefined, key: KeyedCreate): boolean {
  const sent = key.body as { content: string; tag: { name: string }[]; category: { name: string }[] };
  const names = (terms: { name: string }[]) => JSON.stringify(terms.map((term) => term.name).sort());
  return (
    row !== undefined &&
    row.id === key.ackedId &&
    row.content === sent.content &&
    JSON.stringify(row.tags) === names(sent.tag) &&
    JSON.stringify(row.categories) === names(sent.category)
  );
}
