import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultDatabase, openFaultDatabase } from '../support/fault-database';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { errorsByKind, latencyOf, maxLatency } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { ReadinessProbe } from '../support/readiness-probe';
import { recordScenario } from '../support/reliability-report';
import { type RunningService, startService } from '../support/service-process';

const CLIENTS = 20;
const DOWN_MS = 6_000;
const TRAFFIC_AFTER_MS = 8_000;
const ANSWER_BOUND_MS = 3_000;
const RECOVERY_BOUND_MS = 5_000;

/**
 * The service (one process, then WORKERS=2) started while its PostgreSQL is stopped, under
 * 20 clients from the first moment: it listens, answers 503 (never a crash loop), and serves
 * within 5 s of the database starting, having migrated it.
 */
describe.each([1, 2])('started before PostgreSQL, WORKERS=%i, under traffic', (workers) => {
  let database: FaultDatabase;
  let service: RunningService;
  let workDir: string;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-boot-'));
    database = await openFaultDatabase();
  }, 60_000);
  afterAll(async () => {
    if (service && service.process.exitCode === null) service.process.kill('SIGKILL');
    await database.server.start().catch(() => {});
    await database?.remove();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('answers 503 within 3 s until the database starts, then serves within 5 s, without restart', async () => {
    await database.server.stop('fast');
    service = await startService({ DATABASE_URL: database.url, WORKERS: String(workers) }, workDir);
    const seed = runSeed();
    const ledger = new WriteLedger();
    const load = new LoadGenerator({
      baseUrl: service.baseUrl,
      clients: CLIENTS,
      paceMs: 50,
      mix: { create: 2.5, update: 2.5, 'read-one': 3.5, list: 0.5, tags: 0.5, categories: 0.5 },
      ledger,
      random: seededRandom(seed),
      runId: `boot-${workers}`,
      maxDurationMs: 60_000,
      maxRequests: 20_000,
      deadlineMs: 15_000,
    }).start();
    const readiness = new ReadinessProbe(service.baseUrl, 250).start();

    await sleep(DOWN_MS);
    const starting = performance.now();
    await database.server.start();
    const up = performance.now();
    await sleep(TRAFFIC_AFTER_MS);
    const records = await load.stop();
    const probes = await readiness.stop();
    const died = service.process.exitCode !== null || service.process.signalCode !== null;
    expect(died ? `exited:\n${service.stderr().slice(0, 2_000)}` : 'alive').toBe('alive');

    const report = checkDurability(ledger, await readStoredData(service.baseUrl));
    const restarts = service.logLines.filter((line) => line.msg === 'a worker exited unexpectedly').length;
    const beforeUp = records.filter((record) => record.endedAt < starting);
    const afterUp = records.filter((record) => record.startedAt >= up);
    const lastFailure = afterUp.filter((record) => record.status !== 200 && record.status !== 201).at(-1);
    const recoveryMs = lastFailure ? Math.round(lastFailure.endedAt - up) : 0;
    const firstSuccess = afterUp.find((record) => record.status === 200 || record.status === 201);
    recordScenario({
      file: 'postgres-boot-before-database',
      scenario: `started before the database, ${workers} worker${workers > 1 ? 's' : ''}`,
      storage: database.label,
      done: `service started while PostgreSQL is stopped; ${CLIENTS} clients at ≤ 20 req/s each, half writing with tag and category names, from the start; PostgreSQL started after ${DOWN_MS / 1000} s`,
      requests: records.length,
      errors: errorsByKind(records),
      writesAcknowledged: report.acknowledged,
      writesFound: report.found,
      outcome:
        `process alive, process restarts: ${restarts}; slowest answer while down ${Math.round(maxLatency(beforeUp))} ms; ` +
        `${beforeUp.length} requests while down, ${beforeUp.filter((r) => r.status === 503).length} answered 503; ` +
        `after PostgreSQL was up: first 2xx in ${firstSuccess ? Math.round(firstSuccess.endedAt - up) : Number.NaN} ms, ` +
        `${lastFailure ? `last failure at ${recoveryMs} ms` : 'no failure'}; half-applied ${report.halfApplied.length}`,
      seed,
    });

    expect(restarts).toBe(0);
    expect(records.filter((record) => record.status === null || latencyOf(record) >= ANSWER_BOUND_MS)).toEqual([]);
    expect(beforeUp.length).toBeGreaterThan(0);
    expect(beforeUp.filter((record) => record.status !== 503)).toEqual([]);
    expect(probes.filter((probe) => probe.endedAt < starting && probe.status !== 503)).toEqual([]);
    expect(probes.filter((probe) => probe.status === null || latencyOf(probe) >= ANSWER_BOUND_MS)).toEqual([]);
    expect(recoveryMs).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect(probes.filter((probe) => probe.startedAt > up + RECOVERY_BOUND_MS && probe.status !== 200)).toEqual([]);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(report.found).toBe(report.acknowledged);

    service.process.kill('SIGTERM');
    await expect(service.exited).resolves.toBe(0);
  }, 120_000);
});
