import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultDatabase, openFaultDatabase } from '../support/fault-database';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { errorsByKind, latencyOf, maxLatency, overlapping, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
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

const CLIENTS = 20;

/** How the database goes away and comes back. */
export interface DatabaseFault {
  scenario: string;
  /** The test file's name without its extension. */
  file: string;
  /** What was done, for the report. */
  done: string;
  /** Server processes (WORKERS); 1 when not given. */
  workers?: number;
  /**
   * Whether no request can succeed while away (stopped, frozen, refusing): then every request
   * and readiness probe of that time must be the 503. Sessions ended one by one leave room for
   * successes between the kills.
   */
  unreachable: boolean;
  /** The service's DATABASE_URL, when it is not the database's own (another role). */
  serviceUrl?(database: FaultDatabase): Promise<string>;
  takeAway(database: FaultDatabase): Promise<void>;
  bringBack(database: FaultDatabase): Promise<void>;
  /** Undoes what serviceUrl set up. */
  cleanUp?(database: FaultDatabase): Promise<void>;
}

/**
 * PostgreSQL taken away for 10 s under steady traffic to the built service (20 clients, half of
 * them writing articles with tag and category names), then brought back. The process (every
 * process, with WORKERS) must live through it, answer every request within 3 s while the
 * database is away (the 503 wrapper when it cannot be reached), serve normally within 5 s of
 * its return without a restart, and keep every acknowledged write, with nothing half-applied.
 */
export function describeDatabaseFault(fault: DatabaseFault): void {
  describe(`PostgreSQL ${fault.scenario} under steady traffic`, () => {
    let database: FaultDatabase;
    let service: RunningService;
    let workDir: string;
    beforeAll(async () => {
      workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-outage-'));
      database = await openFaultDatabase();
      const url = fault.serviceUrl ? await fault.serviceUrl(database) : database.url;
      service = await startService({ DATABASE_URL: url, WORKERS: String(fault.workers ?? 1) }, workDir);
    }, 60_000);
    afterAll(async () => {
      if (service && service.process.exitCode === null) service.process.kill('SIGKILL');
      await fault.cleanUp?.(database);
      await database?.remove();
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    it('answers 503 within 3 s while away, is normal within 5 s of its return without restart, loses nothing', async () => {
      const seed = runSeed();
      const ledger = new WriteLedger();
      const load = new LoadGenerator({
        baseUrl: service.baseUrl,
        clients: CLIENTS,
        paceMs: 50,
        // Half the requests write (with their own tag, shared tags and categories), half read.
        mix: { create: 2.5, update: 2.5, 'read-one': 3.5, list: 0.5, tags: 0.5, categories: 0.5 },
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
      await fault.takeAway(database);
      const away = performance.now();
      await sleep(AWAY_MS);
      const returning = performance.now();
      await fault.bringBack(database);
      const back = performance.now();
      await sleep(TRAFFIC_AFTER_MS);
      const records = await load.stop();
      const probes = await readiness.stop();
      // A process that died cannot be read back from: say so first, with what it printed.
      const died = service.process.exitCode !== null || service.process.signalCode !== null;
      expect(died ? `exited:\n${service.stderr().slice(0, 2_000)}` : 'alive').toBe('alive');

      const report = checkDurability(ledger, await readStoredData(service.baseUrl));
      const duringOutage = overlapping(records, leaving, back);
      const whileAway = records.filter((record) => record.startedAt >= away && record.endedAt <= returning);
      const afterBack = records.filter((record) => record.startedAt >= back);
      const lastFailure = afterBack.filter((record) => record.status !== 200 && record.status !== 201).at(-1);
      const recoveryMs = lastFailure ? Math.round(lastFailure.endedAt - back) : 0;
      const firstSuccess = afterBack.find((record) => record.status === 200 || record.status === 201);
      const firstSuccessMs = firstSuccess ? Math.round(firstSuccess.endedAt - back) : Number.NaN;
      const alive = service.process.exitCode === null && service.process.signalCode === null;
      const restarts = service.logLines.filter((line) => line.msg === 'a worker exited unexpectedly').length;
      recordScenario({
        file: fault.file,
        scenario: `database ${fault.scenario}`,
        storage: database.label,
        done: `${CLIENTS} clients at ≤ 20 req/s each, half writing with tag and category names${
          fault.workers ? `, WORKERS=${fault.workers}` : ''
        }; ${fault.done}`,
        requests: records.length,
        errors: errorsByKind(records),
        writesAcknowledged: report.acknowledged,
        writesFound: report.found,
        outcome:
          `process ${alive ? 'alive' : 'DIED'}, process restarts: ${restarts}; slowest answer during the outage ` +
          `${Math.round(maxLatency(duringOutage))} ms; ${whileAway.length} requests while away, ` +
          `${whileAway.filter((r) => r.status === 503).length} answered 503; after PostgreSQL was back: ` +
          `first 2xx in ${firstSuccessMs} ms, ${lastFailure ? `last failure at ${recoveryMs} ms` : 'no failure'}; ` +
          `half-applied ${report.halfApplied.length}`,
        seed,
      });

      expect(alive).toBe(true);
      expect(restarts).toBe(0);
      expect(uncaughtErrors(service.stderr())).toEqual([]);
      // None hangs: every request that overlapped the outage was answered, within the bound. A whole
      // list already streaming when the database went away is cut once its re-reads fail: its status
      // was sent, so the cut is its only honest signal (streamed-list.ts), never a shorter valid list.
      const cutWholeList = (record: RequestRecord) =>
        record.operation === 'list' && record.failure === 'RESPONSE_ECONNRESET';
      expect(duringOutage.filter((record) => record.status === null && !cutWholeList(record))).toEqual([]);
      expect(duringOutage.filter((record) => latencyOf(record) >= ANSWER_BOUND_MS)).toEqual([]);
      // While away, reads and writes alike are the 503 wrapper (or, when only some sessions die, 2xx).
      expect(whileAway.some((record) => ['create', 'update'].includes(record.operation))).toBe(true);
      expect(whileAway.some((record) => ['read-one', 'list', 'tags', 'categories'].includes(record.operation))).toBe(
        true,
      );
      if (fault.unreachable) expect(whileAway.filter((record) => record.status !== 503)).toEqual([]);
      const failures = whileAway.filter((record) => record.status !== 200 && record.status !== 201);
      expect(failures.filter((record) => record.status !== 503 || record.message !== UNAVAILABLE_MESSAGE)).toEqual([]);
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

      checkReadiness(probes, { leaving, away, returning, back }, fault.unreachable);

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
  unreachable: boolean,
): void {
  expect(probes.length).toBeGreaterThan(20);
  expect(probes.filter((probe) => probe.status === null || latencyOf(probe) >= ANSWER_BOUND_MS)).toEqual([]);
  const whileAway = probes.filter((probe) => probe.startedAt >= times.away && probe.endedAt <= times.returning);
  const before = probes.filter((probe) => probe.endedAt < times.leaving);
  const settled = probes.filter((probe) => probe.startedAt > times.back + RECOVERY_BOUND_MS);
  expect(whileAway.length).toBeGreaterThan(0);
  const allowed = unreachable ? [503] : [200, 503];
  expect(whileAway.filter((probe) => !allowed.includes(probe.status ?? 0))).toEqual([]);
  expect(before.filter((probe) => probe.status !== 200)).toEqual([]);
  expect(settled.filter((probe) => probe.status !== 200)).toEqual([]);
}
