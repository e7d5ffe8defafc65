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

/**
 * LEAD, after merging GET /ready: set this to true. Until then the route does not exist, and
 * the probe below asserts the 404 it answers today, so this test fails at the merge instead of
 * silently checking nothing. With true, /ready must be 200 before, 503 during and 200 after.
 */
const READY_ROUTE_EXISTS = false;

const TRAFFIC_BEFORE_MS = 3_000;
const DOWN_MS = 10_000;
const TRAFFIC_AFTER_MS = 8_000;
/** The bounds: every request answered within 3 s while down, normal again within 5 s. */
const ANSWER_BOUND_MS = 3_000;
const RECOVERY_BOUND_MS = 5_000;

const UNAVAILABLE = { statusCode: 10001, data: null, message: 'storage is unavailable, try again later' };

/**
 * PostgreSQL stopped abruptly (immediate shutdown, like a crash) under steady traffic to the
 * built service, kept down 10 s, started again. The process must live through it, answer
 * every request quickly while the database is away, serve normally soon after it is back
 * (no restart), and keep every acknowledged write, with nothing half-applied.
 */
describe('PostgreSQL outage under steady traffic', () => {
  let server: PostgresTestServer;
  let service: RunningService;
  let workDir: string;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-outage-'));
    // A server of this file's own: stopping the shared one would break other tests.
    server = await PostgresTestServer.create();
    service = await startService({ DATABASE_URL: server.url }, workDir);
  }, 60_000);
  afterAll(async () => {
    if (service.process.exitCode === null) service.process.kill('SIGKILL');
    await server.destroy();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('answers 503 within 3 s while down, recovers within 5 s without restart, loses nothing', async () => {
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
    const stopping = performance.now();
    await server.stop('immediate');
    const down = performance.now();
    await sleep(DOWN_MS);
    const restarting = performance.now();
    await server.start();
    const up = performance.now();
    await sleep(TRAFFIC_AFTER_MS);
    const records = await load.stop();
    const probes = await readiness.stop();

    const report = checkDurability(ledger, await readStoredData(service.baseUrl));
    const duringOutage = overlapping(records, stopping, up);
    const whileDown = records.filter((record) => record.startedAt >= down && record.endedAt <= restarting);
    const afterUp = records.filter((record) => record.startedAt >= up);
    const lastFailureAfterUp = afterUp.filter((record) => record.status !== 200 && record.status !== 201).at(-1);
    const recoveryMs = lastFailureAfterUp ? Math.round(lastFailureAfterUp.endedAt - up) : 0;
    const alive = service.process.exitCode === null && service.process.signalCode === null;
    recordScenario({
      scenario: 'database outage',
      storage: 'PostgreSQL',
      done: `4 clients at ≤ 20 req/s each, mixed; immediate shutdown, down ${DOWN_MS / 1000} s, restart`,
      requests: records.length,
      errors: errorsByKind(records),
      writesAcknowledged: report.acknowledged,
      writesFound: report.found,
      outcome:
        `process ${alive ? 'alive, not restarted' : 'DIED'}; slowest answer during the outage ` +
        `${Math.round(maxLatency(duringOutage))} ms; ${whileDown.length} requests while down, ` +
        `${whileDown.filter((r) => r.status === 503).length} answered 503; normal again ${recoveryMs} ms ` +
        `after PostgreSQL was back; half-applied ${report.halfApplied.length}`,
      seed,
    });

    expect(alive).toBe(true);
    expect(service.stderr()).toBe('');
    // None hangs: every request that overlapped the outage was answered, within the bound.
    expect(duringOutage.filter((record) => record.status === null)).toEqual([]);
    expect(duringOutage.filter((record) => latencyOf(record) >= ANSWER_BOUND_MS)).toEqual([]);
    // While down, reads and writes alike are the 503 wrapper.
    expect(whileDown.filter((record) => record.status !== 503)).toEqual([]);
    expect(new Set(whileDown.map((record) => record.operation))).toEqual(
      new Set(['create', 'update', 'read-one', 'list', 'tags', 'categories']),
    );
    expect(whileDown.every((record) => record.message === UNAVAILABLE.message)).toBe(true);
    // Back to normal within 5 s of PostgreSQL accepting connections, without a restart.
    expect(recoveryMs).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect(afterUp.filter((record) => record.startedAt > up + RECOVERY_BOUND_MS).length).toBeGreaterThan(20);
    // Never a 500, before, during or after.
    expect(records.filter((record) => (record.status ?? 0) >= 500 && record.status !== 503)).toEqual([]);
    // Nothing acknowledged is lost; nothing failed is half-applied.
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(report.rejectedButApplied).toEqual([]);
    expect(report.found).toBe(report.acknowledged);

    checkReadiness(probes, { stopping, down, restarting, up });

    service.process.kill('SIGTERM');
    await expect(service.exited).resolves.toBe(0);
  }, 120_000);
});

/** GET /ready over the run: 503 while down, 200 otherwise, each within the bound. See READY_ROUTE_EXISTS. */
function checkReadiness(
  probes: RequestRecord[],
  times: { stopping: number; down: number; restarting: number; up: number },
): void {
  expect(probes.length).toBeGreaterThan(20);
  expect(probes.filter((probe) => probe.status === null || latencyOf(probe) >= ANSWER_BOUND_MS)).toEqual([]);
  if (!READY_ROUTE_EXISTS) {
    expect(new Set(probes.map((probe) => probe.status))).toEqual(new Set([404]));
    return;
  }
  const whileDown = probes.filter((probe) => probe.startedAt >= times.down && probe.endedAt <= times.restarting);
  const before = probes.filter((probe) => probe.endedAt < times.stopping);
  const settled = probes.filter((probe) => probe.startedAt > times.up + RECOVERY_BOUND_MS);
  expect(whileDown.length).toBeGreaterThan(0);
  expect(whileDown.filter((probe) => probe.status !== 503)).toEqual([]);
  expect(before.filter((probe) => probe.status !== 200)).toEqual([]);
  expect(settled.filter((probe) => probe.status !== 200)).toEqual([]);
}
