import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../../scripts/topology/processes';
import { roll } from '../../scripts/topology/roll';
import { settingsFromEnv } from '../../scripts/topology/settings';
import type { TopologyState } from '../../scripts/topology/state';
import { down, up } from '../../scripts/topology/topology';
import { freePort } from '../support/free-port';
import { countAnomalies } from '../support/history/anomaly';
import { checkOnPrimary } from '../support/load/check-on-primary';
import { LoadGenerator } from '../support/load/load-generator';
import { countByKind, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';

/** Traffic before the roll, and after it. */
const STEADY_MS = 3_000;
const INSTANCES = 3;

const isSuccess = (record: RequestRecord) => record.status === 200 || record.status === 201;

/**
 * `npm run topology -- roll` under 20 clients through HAProxy: every instance is replaced by a
 * fresh process in turn, and no client sees it: not one answer other than a success, not one
 * reset, nothing acknowledged lost.
 */
describe('a rolling deploy of the instances', () => {
  let state: TopologyState;
  let workDir: string;

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
    if (state) await down(state.stateDir);
    fs.rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('replaces every instance with 0 failed requests and 0 lost writes', async () => {
    const seed = runSeed();
    const ledger = new WriteLedger();
    const load = new LoadGenerator({
      baseUrl: state.lbUrl,
      clients: 20,
      paceMs: 100,
      mix: { create: 6, update: 2, 'read-one': 3, list: 1 },
      ledger,
      random: seededRandom(seed),
      runId: `roll-${seed}`,
      maxDurationMs: 120_000,
      maxRequests: 100_000,
      deadlineMs: 15_000,
      recordHistory: true,
    }).start();
    await sleep(STEADY_MS);
    const rollBegan = performance.now();
    const rolled = await roll(state);
    const rollEnded = performance.now();
    await sleep(STEADY_MS);
    const records = await load.stop();

    const { report, anomalies, checked } = await checkOnPrimary(state.urls.primaryDirect, workDir, ledger, records);
    const duringRoll = records.filter((record) => record.endedAt >= rollBegan && record.startedAt <= rollEnded);
    console.log(
      [
        `seed ${seed}: ${records.length} requests, ${JSON.stringify(countByKind(records))}`,
        ...rolled.map(({ server, oldPid, newPid, ms }) => `rolled ${server} ${oldPid} -> ${newPid} in ${ms} ms`),
        `${duringRoll.length} requests during the roll (${Math.round(rollEnded - rollBegan)} ms)`,
        `writes acknowledged ${report.acknowledged}, found ${report.found}`,
        `history ${JSON.stringify(checked)}: anomalies ${JSON.stringify(countAnomalies(anomalies))}`,
      ].join('\n'),
    );

    // Every instance is a new process, and serves.
    expect(rolled).toHaveLength(INSTANCES);
    for (const { oldPid, newPid } of rolled) {
      expect(newPid).not.toBe(oldPid);
      expect(isAlive(newPid)).toBe(true);
      expect(isAlive(oldPid)).toBe(false);
    }
    // Not one failed request: no 503, no 502, no reset, no timeout.
    expect(records.filter((record) => !isSuccess(record))).toEqual([]);
    expect(duringRoll.length).toBeGreaterThan(100);
    // Nothing acknowledged lost, nothing half-applied.
    expect(report.acknowledged).toBeGreaterThan(100);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(report.found).toBe(report.acknowledged);
    // No lost or phantom article, no key twice, no client's read going back in time; reads to show it.
    expect(anomalies).toEqual([]);
    expect(checked.reads).toBeGreaterThan(100);
  }, 180_000);
});
