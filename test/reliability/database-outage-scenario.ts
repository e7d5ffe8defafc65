import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { errorsByKind, latencyOf, maxLatency, overlapping, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { PostgresTestServer } from '../support/postgres-server';
import { ReadinessProbe } from '../support/readiness-probe';
import { recordScenario } from '../support/reliability-report';
import { type RunningService, startService } from '../support/service-process';

const TRAFFIC_BEFORE_MS = 3_000;
const AWAY_MS = 10_000;
const TRAFFIC_AFTER_MS = 8_000;
/** The issue's bounds: every request answered within 3 s while away, normal again within 5 s. */
const ANSWER_BOUND_MS = 3_000;
const RECOVERY_BOUND_MS = 5_000;

const UNAVAILABLE_MESSAGE = 'storage is unavailable, try again later';

/** How the database goes away and comes back. */
export interface DatabaseFault {
  scenario: string;
  /** The test file's name without its extension. */
  file: string;
  /** What was done, for the report. */
  done: string;
  takeAway(server: PostgresTestServer): Promise<void>;
  bringBack(server: PostgresTestServer): Promise<void>;
}

/**
 * PostgreSQL taken away under steady traffic to the built service for 10 s, then brought back.
 * The process must live through it, answer every request within 3 s while the database is
 * away (reads and writes: the 503 wrapper), serve normally within 5 s of its return without a
 * restart, and keep every acknowledged write, with nothing half-applied.
 */
export function describeDatabaseFault(fault: DatabaseFault): void {
  describe(`PostgreSQL ${fault.scenario} under steady traffic`, () => {
    let server: PostgresTestServer;
    let service: RunningService;
    let workDir: string;
    beforeAll(async () => {
      workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-outage-'));
      // A server of this file's own: taking the shared one away would break other tests.
      server = await PostgresTestServer.create();
      service = await startService({ DATABASE_URL: server.url }, workDir);
    }, 60_000);
    afterAll(async () => {
      if (service.process.exitCode === null) service.process.kill('SIGKILL');
      await server.destroy();
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    it('answers 503 within 3 s while away, is normal within 5 s of its return without restart, loses nothing', async () => {
      const seed = runSeed();
      const ledger = new WriteLedger();
      const load = new LoadGenerator({
        baseUrl: service.baseUrl,
        clients: 4,
        paceMs: 50,
        mix: { create: 3, update: 3, 'read-one': 3, list: 0.3, tags: 0.5, categories: 0.5 },
        ledger,
        random: seededRandom(seed),
        runId: 'outage',
        maxDurationMs: 60_000,
        maxRequests: 20_000,
        deadlineMs: 15_000,
      }).start();
      const readiness = new ReadinessProbe(service.baseUrl, 250).start();

      await sleep(TRAFFIC_BEFORE_MS);
      const leaving = performance.now();
      await fault.takeAway(server);
      const away = performance.now();
      await sleep(AWAY_MS);
      const returning = performance.now();
      await fault.bringBack(server);
      const back = performance.now();
      await sleep(TRAFFIC_AFTER_MS);
      const records = await load.stop();
      const probes = await readiness.stop();

      const report = checkDurability(ledger, await readStoredData(service.baseUrl));
      const duringOutage = overlapping(records, leaving, back);
      const whileAway = records.filter((record) => record.startedAt >= away && record.endedAt <= returning);
      const afterBack = records.filter((record) => record.startedAt >= back);
      const lastFailure = afterBack.filter((record) => record.status !== 200 && record.status !== 201).at(-1);
      const recoveryMs = lastFailure ? Math.round(lastFailure.endedAt - back) : 0;
      const firstSuccess = afterBack.find((record) => record.status === 200 || record.status === 201);
      const firstSuccessMs = firstSuccess ? Math.round(firstSuccess.endedAt - back) : Number.NaN;
      const alive = service.process.exitCode === null && service.process.signalCode === null;
      recordScenario({
        file: fault.file,
        scenario: `database ${fault.scenario}`,
        storage: 'PostgreSQL',
        done: `4 clients at ≤ 20 req/s each, mixed; ${fault.done}`,
        requests: records.length,
        errors: errorsByKind(records),
        writesAcknowledged: report.acknowledged,
        writesFound: report.found,
        outcome:
          `process ${alive ? 'alive, not restarted' : 'DIED'}; slowest answer during the outage ` +
          `${Math.round(maxLatency(duringOutage))} ms; ${whileAway.length} requests while away, ` +
          `${whileAway.filter((r) => r.status === 503).length} answered 503; after PostgreSQL was back: ` +
          `first 2xx in ${firstSuccessMs} ms, ${lastFailure ? `last failure at ${recoveryMs} ms` : 'no failure'}; ` +
          `half-applied ${report.halfApplied.length}`,
        seed,
      });

      expect(alive).toBe(true);
      expect(uncaughtErrors(service.stderr())).toEqual([]);
      // None hangs: every request that overlapped the outage was answered, within the bound.
      expect(duringOutage.filter((record) => record.status === null)).toEqual([]);
      expect(duringOutage.filter((record) => latencyOf(record) >= ANSWER_BOUND_MS)).toEqual([]);
      // While away, reads and writes alike are the 503 wrapper.
      expect(whileAway.filter((record) => record.status !== 503)).toEqual([]);
      expect(whileAway.some((record) => ['create', 'update'].includes(record.operation))).toBe(true);
      expect(whileAway.some((record) => ['read-one', 'list', 'tags', 'categories'].includes(record.operation))).toBe(
        true,
      );
      expect(whileAway.filter((record) => record.message !== UNAVAILABLE_MESSAGE)).toEqual([]);
      // Back to normal within 5 s of PostgreSQL's return, without a restart.
      expect(recoveryMs).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
      expect(afterBack.filter((record) => record.startedAt > back + RECOVERY_BOUND_MS).length).toBeGreaterThan(20);
      // Never a 500, before, during or after.
      expect(records.filter((record) => (record.status ?? 0) >= 500 && record.status !== 503)).toEqual([]);
      // Nothing acknowledged is lost; nothing that failed is half-applied.
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.lost).toEqual([]);
      expect(report.halfApplied).toEqual([]);
      expect(report.rejectedButApplied).toEqual([]);
      expect(report.found).toBe(report.acknowledged);

      checkReadiness(probes, { leaving, away, returning, back });

      service.process.kill('SIGTERM');
      await expect(service.exited).resolves.toBe(0);
    }, 120_000);
  });
}

/** Lines of stderr that are not the pool's warning about a lost idle connection. */
function uncaughtErrors(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => !/Warning: idle PostgreSQL connection lost|node --trace-warnings/.test(line));
}

/** GET /ready over the run, each answered within the bound: 200 before, 503 while away, 200 once back. */
function checkReadiness(
  probes: RequestRecord[],
  times: { leaving: number; away: number; returning: number; back: number },
): void {
  expect(probes.length).toBeGreaterThan(20);
  expect(probes.filter((probe) => probe.status === null || latencyOf(probe) >= ANSWER_BOUND_MS)).toEqual([]);
  const whileAway = probes.filter((probe) => probe.startedAt >= times.away && probe.endedAt <= times.returning);
  const before = probes.filter((probe) => probe.endedAt < times.leaving);
  const settled = probes.filter((probe) => probe.startedAt > times.back + RECOVERY_BOUND_MS);
  expect(whileAway.length).toBeGreaterThan(0);
  expect(whileAway.filter((probe) => probe.status !== 503)).toEqual([]);
  expect(before.filter((probe) => probe.status !== 200)).toEqual([]);
  expect(settled.filter((probe) => probe.status !== 200)).toEqual([]);
}
