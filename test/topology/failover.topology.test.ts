import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { dbServerStates } from '../../scripts/topology/haproxy';
import { cutNode, cutReplication, healNode } from '../../scripts/topology/network';
import { clusterMembers, killNode } from '../../scripts/topology/patroni';
import { waitUntil } from '../../scripts/topology/processes';
import { flushArchive } from '../../scripts/topology/restore';
import { settingsFromEnv, type TopologySettings } from '../../scripts/topology/settings';
import type { Component, TopologyState } from '../../scripts/topology/state';
import {
  down,
  isHealthy,
  leftoverProcesses,
  NODES,
  nodesOf,
  switchover,
  takesWrites,
  up,
} from '../../scripts/topology/topology';
import { freePort } from '../support/free-port';
import { type Anomaly, countAnomalies } from '../support/history/anomaly';
import { checkHistory } from '../support/history/check-history';
import { historyFigures } from '../support/history/history-figures';
import { readPrimaryArticles } from '../support/history/primary-articles';
import { TOPOLOGY_READ_STALENESS_MS } from '../support/history/replica-staleness';
import { FailoverLoad, type KeyedCreate, TWENTY_CLIENTS } from '../support/load/failover-load';
import { latencyOf, type RequestRecord } from '../support/load/request-log';
import { type TimelineMark, timelineSvg } from '../support/load/timeline-svg';

/** The issue's hard bounds (acceptance criteria of each scenario). */
const ANSWER_BOUND_MS = 3_000;
const WRITES_BACK_MEDIAN_MS = 15_000;
const WRITES_BACK_MAX_MS = 20_000;
const SWITCHOVER_PAUSE_MS = 5_000;
const REJOIN_BOUND_MS = 60_000;
const READS_OK_SHARE = 0.99;
/** Traffic before a fault, and after writes are back. */
const STEADY_MS = 4_000;
const AFTER_RECOVERY_MS = 4_000;
const PARTITION_MS = 30_000;
/** Lists read while a replica's replication is cut (in rounds of 20 at once). */
const CUT_REPLICA_LISTS = 60;
const NODE_DEATH_RUNS = 3;
/** The issue's "in 5 of 5 runs". */
const SWITCHOVER_RUNS = 5;
const TIMELINE_DIR = path.resolve(__dirname, '../../test-artifacts/topology');

const isOk = (record: RequestRecord) => record.status !== null && record.status >= 200 && record.status < 300;
/** The answers a client may get while the primary is gone: the service's 503 wrapper, or 409 for a key still in progress. */
const isAllowedError = (record: RequestRecord) =>
  record.status === 503 || (record.operation === 'create' && record.status === 409);

interface Figures {
  scenario: string;
  requests: number;
  /** From the fault to the end of the first acknowledged create sent after it. */
  writesBackMs: number | null;
  /** Longest time between two acknowledged creates around the fault. */
  longestWriteGapMs: number;
  promotionMs: number | null;
  readsInWindow: number;
  readsOkShare: number;
  slowestMs: number;
  notAllowed: RequestRecord[];
  keys: number;
  acked: number;
  halfApplied: string[];
  /** The history checker's findings over every scenario's requests so far, against the primary now. */
  anomalies: Anomaly[];
  /** This scenario's part of the history: how many clients, creates and reads it recorded. */
  recorded: ReturnType<typeof historyFigures>;
  timeline: string;
}

/**
 * Lose the primary, keep the service (issue 17): the topology of `npm run topology` (etcd, three
 * PostgreSQL nodes under Patroni in synchronous strict mode, the database HAProxy, PgBouncer, two
 * instances, HAProxy) under 20 clients (10 creating with Idempotency-Key and retrying with the
 * same key, 10 reading), through a dead primary node (x3, each followed by its rejoin through
 * `up`), a planned switchover, and a partition of the primary from etcd and the other nodes.
 */
describe('topology failover', () => {
  let settings: TopologySettings;
  let state: TopologyState;
  let workDir: string;
  const figures: Figures[] = [];
  /** Every request of every scenario: the scenarios share one database, so one history. */
  const history: RequestRecord[] = [];

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-failover-'));
    fs.mkdirSync(TIMELINE_DIR, { recursive: true });
    settings = settingsFromEnv({
      TOPOLOGY_DIR: path.join(workDir, 'state'),
      TOPOLOGY_PORT: String(await freePort()),
      INSTANCES: '2',
    });
    state = await up(settings);
  }, 180_000);

  afterAll(async () => {
    if (state) await down(state.stateDir);
    fs.rmSync(workDir, { recursive: true, force: true });
    console.log(figures.map(summarize).join('\n'));
  }, 120_000);

  const patroniOf = (name: string): Component => {
    const found = state.components.find((component) => component.node?.name === name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };
  const leaderName = async () => (await clusterMembers(nodesOf(state))).find((m) => m.role === 'leader')?.name;

  /** Runs the load, applies the fault after STEADY_MS, waits for writes to come back, checks everything. */
  async function scenario(name: string, fault: (mark: (label: string) => void) => Promise<void>): Promise<Figures> {
    const runId = `${name.replace(/\W+/g, '')}${Date.now().toString(36)}`;
    const load = new FailoverLoad({
      baseUrl: state.lbUrl,
      runId,
      ...TWENTY_CLIENTS,
    }).start();
    const from = performance.now();
    const marks: TimelineMark[] = [];
    const mark = (label: string) => marks.push({ label, at: performance.now() });
    await sleep(STEADY_MS);
    const before = await leaderName();
    const faultAt = performance.now();
    // The promotion: when another node than the old leader holds the leader key.
    let promotedAt: number | null = null;
    const watching = (async () => {
      while (promotedAt === null && performance.now() - faultAt < 90_000) {
        const leader = await leaderName().catch(() => undefined);
        if (leader !== undefined && leader !== before) promotedAt = performance.now();
        else await sleep(100);
      }
    })();
    await fault(mark);
    const faultDone = performance.now();
    // Sent once the fault's action had returned: a write sent just before the cut took effect
    // may still be acknowledged by the old primary, and is not "writes back".
    const writesBack = () =>
      load.records.find((r) => r.operation === 'create' && isOk(r) && r.startedAt > faultDone) ?? null;
    await waitUntil(async () => writesBack() !== null, 90_000, `writes to succeed again after ${name}`).catch(() => {});
    await sleep(AFTER_RECOVERY_MS);
    const records = await load.stop();
    await watching;
    const to = performance.now();
    const back = writesBack();
    if (promotedAt !== null) marks.push({ label: 'new leader in etcd', at: promotedAt });
    if (back) marks.push({ label: 'writes back', at: back.endedAt });

    const acks = records.filter((r) => r.operation === 'create' && isOk(r)).map((r) => r.endedAt);
    const gaps = acks.slice(1).map((at, index) => at - (acks[index] ?? at));
    // The failover window: from the fault until writes are back and the fault's action returned.
    const windowEnd = Math.max(back?.endedAt ?? to, faultDone);
    const reads = records.filter((r) => r.operation !== 'create' && r.endedAt >= faultAt && r.startedAt <= windowEnd);
    const stored = await storedArticles(state, runId);
    history.push(...records);
    const anomalies = checkHistory(history, await everyStoredArticle(state), {
      staleWithinMs: TOPOLOGY_READ_STALENESS_MS,
    });
    const timeline = path.join(TIMELINE_DIR, `${runId}.svg`);
    fs.writeFileSync(
      timeline,
      timelineSvg(`${name}: 10 writers, 10 readers through HAProxy`, records, from, to, [
        { label: 'fault', at: faultAt },
        ...marks,
      ]),
    );
    const result: Figures = {
      scenario: name,
      requests: records.length,
      writesBackMs: back ? Math.round(back.endedAt - faultAt) : null,
      longestWriteGapMs: Math.round(Math.max(0, ...gaps)),
      promotionMs: promotedAt === null ? null : Math.round(promotedAt - faultAt),
      readsInWindow: reads.length,
      readsOkShare: reads.length === 0 ? 1 : reads.filter(isOk).length / reads.length,
      slowestMs: Math.round(Math.max(...records.map(latencyOf))),
      notAllowed: records.filter((r) => !isOk(r) && !isAllowedError(r)),
      ...checkKeys(load.keys, stored),
      anomalies,
      recorded: historyFigures(records),
      timeline,
    };
    figures.push(result);
    console.log(summarize(result));
    const failedReads = reads.filter((r) => !isOk(r));
    if (failedReads.length > 0) {
      const at = (r: RequestRecord) => `${Math.round(r.startedAt - faultAt)}..${Math.round(r.endedAt - faultAt)} ms`;
      console.log(
        `${name}: reads without 2xx in the window\n  ${failedReads.map((r) => `${show(r)} at ${at(r)}`).join('\n  ')}`,
      );
    }
    // The components' logs so far, beside the timeline, for whoever reads a failure.
    fs.cpSync(path.join(state.stateDir, 'logs'), path.join(TIMELINE_DIR, `${runId}-logs`), { recursive: true });
    return result;
  }

  /**
   * The bounds every scenario shares: answers within 3 s, only 503s (or 409s) as errors, nothing
   * half-applied, and no anomaly in the history (nothing lost, doubled, phantom or read stale).
   */
  function expectSafe(result: Figures): void {
    expect(result.acked).toBeGreaterThan(50);
    expect(result.halfApplied).toEqual([]);
    expect(result.anomalies).toEqual([]);
    expect(result.recorded.reads).toBeGreaterThan(100);
    expect(result.notAllowed.map(show)).toEqual([]);
    expect(result.slowestMs).toBeLessThan(ANSWER_BOUND_MS);
    expect(result.readsOkShare).toBeGreaterThanOrEqual(READS_OK_SHARE);
  }

  /** `up` again starts what is missing; the cluster is back to one leader, a sync standby and a replica. */
  async function rejoin(): Promise<number> {
    const began = performance.now();
    state = await up(settings);
    await waitUntil(
      async () => isHealthy(await clusterMembers(nodesOf(state)), NODES),
      REJOIN_BOUND_MS,
      '1 primary + 2 replicas with a synchronous standby',
    );
    return Math.round(performance.now() - began);
  }

  it('a dead primary node (Patroni and PostgreSQL SIGKILLed): writes back within 15 s (median of 3), reads stay up, nothing lost or doubled; the node rejoins within 60 s', async () => {
    const runs: Figures[] = [];
    const rejoins: number[] = [];
    for (let run = 1; run <= NODE_DEATH_RUNS; run++) {
      const result = await scenario(`node death ${run}`, async () => {
        killNode(patroniOf((await leaderName()) ?? ''));
      });
      runs.push(result);
      const rejoinMs = await rejoin();
      rejoins.push(rejoinMs);
      console.log(`node death ${run}: rejoined with up in ${rejoinMs} ms`);
    }
    const backs = runs.map((r) => r.writesBackMs ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
    console.log(
      `node death: writes back after ${backs.join(', ')} ms (median ${backs[1]}); rejoin ${rejoins.join(', ')} ms`,
    );
    for (const result of runs) {
      expectSafe(result);
      expect(result.writesBackMs).toBeLessThanOrEqual(WRITES_BACK_MAX_MS);
    }
    expect(backs[Math.floor(backs.length / 2)]).toBeLessThanOrEqual(WRITES_BACK_MEDIAN_MS);
    for (const ms of rejoins) expect(ms).toBeLessThanOrEqual(REJOIN_BOUND_MS);
  }, 600_000);

  it('a planned switchover, 5 times: writes pause at most 5 s, every answer within 3 s, nothing lost or doubled, reads stay up', async () => {
    const runs: Figures[] = [];
    for (let run = 1; run <= SWITCHOVER_RUNS; run++) {
      runs.push(
        await scenario(`switchover ${run}`, async (mark) => {
          const { to } = await switchover(state);
          mark(`switchover returned (${to} primary)`);
        }),
      );
      // The old primary follows the new one as a synchronous standby before the next run.
      await waitUntil(
        async () => isHealthy(await clusterMembers(nodesOf(state)), NODES),
        REJOIN_BOUND_MS,
        'the old primary to follow as a synchronous standby',
      );
    }
    console.log(
      `switchover: longest write pause ${runs.map((r) => r.longestWriteGapMs).join(', ')} ms; ` +
        `slowest answer ${runs.map((r) => r.slowestMs).join(', ')} ms`,
    );
    for (const result of runs) {
      expectSafe(result);
      expect(result.longestWriteGapMs).toBeLessThanOrEqual(SWITCHOVER_PAUSE_MS);
    }
  }, 600_000);

  it('a replica that stops streaming serves no read: 60 lists show what was acknowledged 1.5 s before them', async () => {
    const network = state.network;
    if (!network) {
      console.log('replica cut skipped: the nodes share the loopback (not root, or no network namespaces here)');
      return;
    }
    const leader = patroniOf((await leaderName()) ?? '');
    const members = await clusterMembers(nodesOf(state));
    // A synchronous standby: when it is the only one (as just after a switchover), the cut leaves
    // none until Patroni names the other, and the running replicas stand in meanwhile.
    const syncBefore = members.filter((member) => member.role === 'sync_standby').map((member) => member.name);
    const name = syncBefore[0] ?? members.find((member) => member.role !== 'leader')?.name ?? '';
    const replica = patroniOf(name);
    const created: number[] = [];
    cutReplication(network, replica.node?.number ?? 0, leader.node?.number ?? 0, leader.node?.pgPort ?? 0);
    // Reads go on meanwhile, as traffic does: PgBouncer opens sessions wherever the replicas'
    // port leads at each moment, stand-ins included.
    let reading = true;
    const reads = (async () => {
      while (reading) await Promise.all([newestIds(state.lbUrl).catch(() => []), sleep(50)]);
    })();
    try {
      await withClient(state.urls.superuser, (client) =>
        client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_replication WHERE application_name = $1', [name]),
      );
      // The leader's Patroni names the other standby alone; the cut one still runs as a replica.
      await waitUntil(
        async () => (await clusterMembers(nodesOf(state))).find((member) => member.name === name)?.role === 'replica',
        15_000,
        `${name} to leave the synchronous standbys`,
      );
      const cut = (await clusterMembers(nodesOf(state))).find((member) => member.name === name);
      // The replicas' port as HAProxy sees it: the cut node out, a synchronous standby in. Its
      // sessions end by HAProxy alone (shut when it is marked down, and those opened on a
      // stand-in meanwhile when a synchronous standby is marked up), not by this test.
      await waitUntil(
        async () => {
          const states = await dbServerStates(state.stateDir, 'replicas');
          return (
            states.get(name) !== 'UP' && [...states].some(([server, status]) => server !== name && status === 'UP')
          );
        },
        15_000,
        `the replicas' port to drop ${name} and admit a synchronous standby`,
      );
      reading = false;
      await reads;
      // The service reads on the primary for a second after a replica read failed.
      await sleep(1_500);
      for (let index = 0; index < 10; index++) created.push(await createArticle(state.lbUrl, `cut replica ${index}`));
      // A synchronous standby has flushed each of them; replaying them takes it up to the bound.
      await sleep(TOPOLOGY_READ_STALENESS_MS);
      // 20 at a time, so that PgBouncer's pool holds sessions to every node the replicas' port admits.
      const lists: number[][] = [];
      for (let round = 0; round < CUT_REPLICA_LISTS / 20; round++) {
        lists.push(...(await Promise.all(Array.from({ length: 20 }, () => newestIds(state.lbUrl)))));
      }
      const stale = lists
        .map((listed, index) => ({ index, missing: created.filter((id) => !listed.includes(id)) }))
        .filter(({ missing }) => missing.length > 0)
        .map(({ index, missing }) => `list ${index + 1} lacks ${missing.join(', ')}`);
      const routed = (await dbServerStates(state.stateDir, 'replicas')).get(name);
      console.log(
        `replica ${name} cut from ${leader.node?.name} (synchronous standbys before: ${syncBefore.join(', ')}; ` +
          `after: ${cut?.state}, ${cut?.role}, ${routed} in the replicas' port): ` +
          `${stale.length} of ${lists.length} lists stale\n  ${stale.slice(0, 5).join('\n  ')}`,
      );
      expect(cut?.state).toBe('running');
      expect(stale).toEqual([]);
    } finally {
      reading = false;
      await reads;
      healNode(network, replica.node?.number ?? 0);
      await waitUntil(
        async () => isHealthy(await clusterMembers(nodesOf(state)), NODES),
        REJOIN_BOUND_MS,
        `${name} to stream again as a synchronous standby`,
      );
      // The other scenarios' history knows no create of these: they would count as phantoms.
      for (const id of created) await deleteArticle(state.lbUrl, id);
    }
  }, 120_000);

  it('the primary cut off from etcd and the other nodes for 30 s: it acknowledges nothing the new primary lacks; writes back within 15 s', async () => {
    const network = state.network;
    if (!network) {
      console.log('partition skipped: the nodes share the loopback (not root, or no network namespaces here)');
      return;
    }
    const result = await scenario('partition', async (mark) => {
      const leader = patroniOf((await leaderName()) ?? '');
      const number = leader.node?.number ?? 0;
      cutNode(network, number, NODES, state.etcdPort);
      mark(`${leader.node?.name} cut off`);
      // The load runs on while the partition lasts; writes come back meanwhile on the new primary.
      void sleep(PARTITION_MS).then(() => {
        healNode(network, number);
      });
    });
    // The heal happened during or after the scenario: wait for it, then for the old primary to rejoin.
    await sleep(Math.max(0, PARTITION_MS - (result.writesBackMs ?? 0) - AFTER_RECOVERY_MS) + 500);
    await waitUntil(
      async () => isHealthy(await clusterMembers(nodesOf(state)), NODES),
      REJOIN_BOUND_MS,
      'the old primary to rejoin after the partition',
    );
    const stored = await storedArticles(state, '');
    expect(stored.length).toBeGreaterThan(0);
    expectSafe(result);
    // "Writes back within the same 15 s" as a dead node (issue 17).
    expect(result.writesBackMs).toBeLessThanOrEqual(WRITES_BACK_MEDIAN_MS);
  }, 300_000);

  it('every node goes on archiving once it is primary again: after the failovers, each takes the lead in turn and its WAL reaches the repository', async () => {
    // A node that died as primary rejoins by pg_rewind; when it leads again, its archiver must
    // not be held by what it kept of the timeline it left.
    const archivedOn: string[] = [];
    for (let turn = 0; turn < NODES; turn++) {
      const leader = (await leaderName()) ?? '?';
      await waitUntil(() => takesWrites(state), REJOIN_BOUND_MS, `${leader} to take writes`);
      const archived = await flushArchive(state).catch(async (error: unknown) => {
        throw new Error(`${leader}: ${(error as Error).message}; pg_stat_archiver ${await archiverState(state)}`);
      });
      expect(archived).toBe(true);
      archivedOn.push(leader);
      if (turn === NODES - 1) break;
      await waitUntil(
        async () => isHealthy(await clusterMembers(nodesOf(state)), NODES),
        REJOIN_BOUND_MS,
        'a synchronous standby to hand the lead to',
      );
      await switchover(state);
    }
    console.log(`archived on ${archivedOn.join(', ')}`);
    expect(new Set(archivedOn).size).toBeGreaterThan(1);
  }, 300_000);

  it('leaves no process, folder or network namespace behind after down', async () => {
    const started = state;
    await down(started.stateDir);
    expect(leftoverProcesses(started)).toEqual([]);
    expect(fs.existsSync(started.stateDir)).toBe(false);
    expect(fs.existsSync(started.postgresDir)).toBe(false);
    if (started.network) {
      const { execFileSync } = await import('node:child_process');
      const namespaces = execFileSync('ip', ['netns', 'list']).toString();
      for (const namespace of started.network.namespaces) expect(namespaces).not.toContain(namespace);
    }
  }, 120_000);
});

interface StoredArticle {
  title: string;
  id: number;
  tags: number;
  categories: number;
  ownTag: number;
}

/** The run's articles as the current primary has them (through the database HAProxy, no pooler, no service). */
async function storedArticles(state: TopologyState, runId: string): Promise<StoredArticle[]> {
  let rows: StoredArticle[] = [];
  await waitUntil(
    async () => {
      const client = new Client({ connectionString: state.urls.primaryDirect, connectionTimeoutMillis: 2_000 });
      client.on('error', () => {});
      try {
        await client.connect();
        const answer = await client.query<StoredArticle>(
          `SELECT a.title, a.id,
             (SELECT count(*)::int FROM article_tags l WHERE l.article_id = a.id) AS tags,
             (SELECT count(*)::int FROM article_categories l WHERE l.article_id = a.id) AS categories,
             (SELECT count(*)::int FROM article_tags l JOIN tags t ON t.id = l.tag_id
               WHERE l.article_id = a.id AND t.name = 't-' || substr(a.title, 4)) AS "ownTag"
           FROM articles a WHERE a.title LIKE $1`,
          [`fo ${runId}%`],
        );
        rows = answer.rows;
        return true;
      } finally {
        await client.end().catch(() => {});
      }
    },
    30_000,
    'the primary to answer the durability check',
  );
  return rows;
}

/** Every article the current primary has, whatever the run: the final read of the history check. */
async function everyStoredArticle(state: TopologyState) {
  let rows: Awaited<ReturnType<typeof readPrimaryArticles>> = [];
  await waitUntil(
    async () => {
      rows = await readPrimaryArticles(state.urls.primaryDirect);
      return true;
    },
    30_000,
    'the primary to answer the history check',
  );
  return rows;
}

/**
 * The keys and how many were acknowledged; every stored article whole (its two tags, its category
 * and its own tag). Lost and doubled articles are the history checker's (lost-acknowledged-create,
 * duplicate-for-key).
 */
function checkKeys(keys: readonly KeyedCreate[], stored: readonly StoredArticle[]) {
  return {
    keys: keys.length,
    acked: keys.filter((key) => key.ackedId !== null).length,
    halfApplied: stored
      .filter((row) => row.tags !== 2 || row.categories !== 1 || row.ownTag !== 1)
      .map((row) => `${row.title}: ${row.tags} tags, ${row.categories} categories`),
  };
}

const show = (r: RequestRecord) =>
  `${r.operation} ${r.status ?? r.failure} "${r.message ?? ''}" after ${Math.round(latencyOf(r))} ms`;

function summarize(result: Figures): string {
  return [
    `${result.scenario}: ${result.requests} requests; writes back after ${result.writesBackMs ?? '-'} ms`,
    `(new leader after ${result.promotionMs ?? '-'} ms), longest gap between acknowledged writes ${result.longestWriteGapMs} ms;`,
    `reads in the window ${result.readsInWindow}, ${(result.readsOkShare * 100).toFixed(2)} % 2xx; slowest answer ${result.slowestMs} ms;`,
    `keys ${result.keys}, acknowledged ${result.acked}, half-applied ${result.halfApplied.length},`,
    `other errors ${result.notAllowed.length};`,
    `history ${JSON.stringify(result.recorded)}, anomalies ${JSON.stringify(countAnomalies(result.anomalies))};`,
    `timeline ${result.timeline}`,
  ].join(' ');
}

/** Runs `work` on a client of its own to `url`. */
async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates a published article through the service; its id. */
async function createArticle(baseUrl: string, title: string): Promise<number> {
  const answer = await fetch(`${baseUrl}/article/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `${title} ${Date.now()}`, content: title, visible: true, tag: [], category: [] }),
  });
  const body = (await answer.json()) as { data?: { id?: number } };
  if (answer.status !== 201 || typeof body.data?.id !== 'number') throw new Error(`create answered ${answer.status}`);
  return body.data.id;
}

async function deleteArticle(baseUrl: string, id: number): Promise<void> {
  const answer = await fetch(`${baseUrl}/article/delete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  if (answer.status !== 200) throw new Error(`delete of ${id} answered ${answer.status}`);
}

/** The ids of the newest page of the list, as the service answers it. */
async function newestIds(baseUrl: string): Promise<number[]> {
  const answer = await fetch(`${baseUrl}/article?order=newest&limit=20`);
  const body = (await answer.json()) as { data?: { id: number }[] };
  if (answer.status !== 200 || !Array.isArray(body.data)) throw new Error(`list answered ${answer.status}`);
  return body.data.map((article) => article.id);
}

/** The primary's archiver as pg_stat_archiver has it: its last success and its last failure. */
async function archiverState(state: TopologyState): Promise<string> {
  return withClient(state.urls.superuser, async (client) => {
    const { rows } = await client.query(
      'SELECT archived_count, last_archived_wal, failed_count, last_failed_wal FROM pg_stat_archiver',
    );
    return JSON.stringify(rows[0] ?? null);
  }).catch((error: unknown) => `unreadable (${(error as Error).message})`);
}
