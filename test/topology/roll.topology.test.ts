import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../../scripts/topology/processes';
import { roll } from '../../scripts/topology/roll';
import { rollNodes } from '../../scripts/topology/roll-nodes';
import { settingsFromEnv } from '../../scripts/topology/settings';
import type { TopologyState } from '../../scripts/topology/state';
import { down, up } from '../../scripts/topology/topology';
import { freePort } from '../support/free-port';
import { countAnomalies } from '../support/history/anomaly';
import { checkOnPrimary } from '../support/load/check-on-primary';
import { LoadGenerator } from '../support/load/load-generator';
import { countByKind, latencyOf, maxLatency, overlapping, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';

/** Traffic before the roll, and after it. */
const STEADY_MS = 3_000;
const INSTANCES = 3;
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/topology');

/** The issue's bound on a write pause while the nodes restart. */
const WRITE_PAUSE_MS = 5_000;
/**
 * The share of the roll's reads that may fail, each overlapping the switchover (RELIABILITY.md,
 * "Reads during a switchover ≥ 99 %"): both entries can refuse logins for about 3 s there, longer
 * than a read's 2.5 s. A replica's restart fails none.
 */
const SWITCHOVER_READ_FAILURES = 0.01;
/** A read answers within this, whatever it meets (read-attempts.ts). */
const READ_BOUND_MS = 3_000;
const WRITES = new Set(['create', 'update']);

const isSuccess = (record: RequestRecord) => record.status === 200 || record.status === 201;
const show = (record: RequestRecord) =>
  `${record.operation} ${record.status ?? record.failure} "${record.message ?? ''}" after ${Math.round(latencyOf(record))} ms`;

/**
 * Rolling restarts under 20 clients through HAProxy. `npm run topology -- roll`: every instance
 * is replaced by a fresh process in turn, and no client sees it: not one answer other than a
 * success, not one reset, nothing acknowledged lost. `roll-nodes`: every database node restarts
 * in turn; writes pause while the primary changes hands, reads never fail.
 */
describe('rolling restarts under load', () => {
  let state: TopologyState;
  let workDir: string;
  /** Every request of both tests: they share one database, so the history is checked whole. */
  const history: RequestRecord[] = [];

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-roll-'));
    state = await up(
      settingsFromEnv({
        TOPOLOGY_DIR: path.join(workDir, 'state'),
        TOPOLOGY_PORT: String(await freePort()),
        INSTANCES: String(INSTANCES),
      }),
    );
  }, 120_000);

  afterAll(async () => {
    if (state) {
      // The components' logs, for whoever reads a failure (the instances log each 503's cause).
      fs.cpSync(path.join(state.stateDir, 'logs'), path.join(ARTIFACTS, 'roll-logs'), { recursive: true });
      await down(state.stateDir);
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  /** Runs the 20 clients, `action` after STEADY_MS, then STEADY_MS more; checks everything on the primary. */
  async function underLoad<T>(name: string, action: () => Promise<T>) {
    const seed = runSeed();
    const ledger = new WriteLedger();
    const load = new LoadGenerator({
      baseUrl: state.lbUrl,
      clients: 20,
      paceMs: 100,
      mix: { create: 6, update: 2, 'read-one': 3, list: 1 },
      ledger,
      random: seededRandom(seed),
      runId: `${name}-${seed}`,
      maxDurationMs: 180_000,
      maxRequests: 100_000,
      deadlineMs: 15_000,
      recordHistory: true,
    }).start();
    await sleep(STEADY_MS);
    const began = performance.now();
    const result = await action();
    const ended = performance.now();
    await sleep(STEADY_MS);
    const records = await load.stop();
    history.push(...records);
    const check = await checkOnPrimary(state.urls.primaryDirect, workDir, ledger, history);
    const during = records.filter((record) => record.endedAt >= began && record.startedAt <= ended);
    console.log(
      [
        `${name}, seed ${seed}: ${records.length} requests, ${JSON.stringify(countByKind(records))}`,
        `${during.length} requests during the ${name} (${Math.round(ended - began)} ms), slowest answer ${Math.round(maxLatency(records))} ms`,
        `writes acknowledged ${check.report.acknowledged}, found ${check.report.found}`,
        `history ${JSON.stringify(check.checked)}: anomalies ${JSON.stringify(countAnomalies(check.anomalies))}`,
      ].join('\n'),
    );
    return { result, records, during, ...check };
  }

  /** Nothing acknowledged lost or half-applied; no lost or phantom article, no key twice, no read back in time (past the replicas' bound). */
  function expectNothingLost({ report, anomalies, checked }: Awaited<ReturnType<typeof checkOnPrimary>>): void {
    expect(report.acknowledged).toBeGreaterThan(100);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(anomalies).toEqual([]);
    expect(checked.reads).toBeGreaterThan(100);
  }

  it('replaces every instance with 0 failed requests and 0 lost writes', async () => {
    const run = await underLoad('roll', () => roll(state));
    for (const { server, oldPid, newPid, ms } of run.result)
      console.log(`rolled ${server} ${oldPid} -> ${newPid} in ${ms} ms`);

    // Every instance is a new process, and serves.
    expect(run.result).toHaveLength(INSTANCES);
    for (const { oldPid, newPid } of run.result) {
      expect(newPid).not.toBe(oldPid);
      expect(isAlive(newPid)).toBe(true);
      expect(isAlive(oldPid)).toBe(false);
    }
    // Not one failed request: no 503, no 502, no reset, no timeout.
    expect(run.records.filter((record) => !isSuccess(record))).toEqual([]);
    expect(run.during.length).toBeGreaterThan(100);
    expectNothingLost(run);
    expect(run.report.found).toBe(run.report.acknowledged);
  }, 180_000);

  it('restarts every database node (replicas, a switchover, the old primary): writes pause at most 5 s, reads fail only in the switchover (≤ 1 %)', async () => {
    const stepsEnded: number[] = [];
    const run = await underLoad('roll-nodes', () => rollNodes(state, () => stepsEnded.push(performance.now())));
    const acks = run.records
      .filter((record) => WRITES.has(record.operation) && isSuccess(record))
      .map((record) => record.endedAt)
      .sort((a, b) => a - b);
    const longestPause = Math.max(0, ...acks.slice(1).map((at, index) => at - (acks[index] ?? at)));
    const reads = run.records.filter((record) => !WRITES.has(record.operation));
    console.log(
      [
        ...run.result.map((step, index) => {
          const ended = stepsEnded[index] ?? 0;
          const refused = run.records.filter(
            (r) => WRITES.has(r.operation) && !isSuccess(r) && r.endedAt >= ended - step.ms && r.endedAt <= ended,
          ).length;
          const what =
            step.kind === 'restarted' ? `restarted ${step.node}` : `switched over from ${step.from} to ${step.to}`;
          return `${what} in ${step.ms} ms, ${refused} writes refused meanwhile`;
        }),
        `longest pause between acknowledged writes ${Math.round(longestPause)} ms; reads ${reads.length}, failed ${reads.filter((r) => !isSuccess(r)).length}`,
        // A failed read, placed: which step it fell in, and how far into it.
        ...reads
          .filter((r) => !isSuccess(r))
          .map((r) => {
            const index = stepsEnded.findIndex((ended) => r.endedAt <= ended);
            const step = run.result[index];
            const began = (stepsEnded[index] ?? 0) - (step?.ms ?? 0);
            return `  failed ${show(r)}, ${step ? `${Math.round(r.startedAt - began)} ms into step ${index + 1} (${step.kind})` : 'after the last step'}`;
          }),
      ].join('\n'),
    );

    // Three restarts and one switchover, in that order: replica, replica, switchover, old primary.
    expect(run.result.map((step) => step.kind)).toEqual(['restarted', 'restarted', 'switched-over', 'restarted']);
    const switched = run.result.find((step) => step.kind === 'switched-over');
    expect(run.result.at(-1)).toMatchObject({ node: switched?.kind === 'switched-over' ? switched.from : '?' });
    for (const step of run.result) if (step.kind === 'restarted') expect(isAlive(step.oldPid)).toBe(false);
    // Reads: a failure only where a read overlaps the switchover, as the 503 wrapper within the
    // bound, and at most 1 % of them. Writes: paused at most 5 s; a write refused meanwhile is a 503 (or a key's 409).
    const switchover = run.result.findIndex((step) => step.kind === 'switched-over');
    const switchoverEnded = stepsEnded[switchover] ?? 0;
    const switchoverBegan = switchoverEnded - (run.result[switchover]?.ms ?? 0);
    const inSwitchover = new Set(overlapping(reads, switchoverBegan, switchoverEnded));
    const failedReads = reads.filter((record) => !isSuccess(record));
    expect(
      failedReads
        .filter((record) => !inSwitchover.has(record) || record.status !== 503 || latencyOf(record) > READ_BOUND_MS)
        .map(show),
    ).toEqual([]);
    expect(failedReads.length).toBeLessThanOrEqual(Math.floor(reads.length * SWITCHOVER_READ_FAILURES));
    expect(longestPause).toBeLessThanOrEqual(WRITE_PAUSE_MS);
    expect(
      run.records.filter((record) => !isSuccess(record) && record.status !== 503 && record.status !== 409).map(show),
    ).toEqual([]);
    expect(run.during.length).toBeGreaterThan(100);
    expectNothingLost(run);
  }, 300_000);
});
