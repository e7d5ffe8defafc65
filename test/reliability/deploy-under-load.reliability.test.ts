import { setTimeout as sleep } from 'node:timers/promises';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { countByKind, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { recordScenario } from '../support/reliability-report';
import { openScenarioStorage, type ScenarioStorage } from '../support/scenario-storage';
import { startService } from '../support/service-process';

/** SIGTERM comes 1 to 2.5 s into the load. */
const SIGTERM_WINDOW_MS = [1_000, 2_500] as const;

/**
 * A request the service never read is not "accepted": a connection refused once it stopped
 * listening, or a keep-alive connection it closed as idle just as the client sent on it (the
 * client may retry those; HTTP/1.1 allows it for a request that got no answer). Anything else
 * that did not end in an answer, or a 5xx answer, is an accepted request that failed.
 */
function notAccepted(record: RequestRecord): boolean {
  if (record.failure === 'ECONNREFUSED') return true;
  return record.reusedSocket && (record.failure === 'ECONNRESET' || record.failure === 'socket hang up');
}

/**
 * A deploy: SIGTERM to the built service while clients keep sending. The service must finish
 * every request it accepted, answer none with a 5xx, and exit 0; afterwards every acknowledged
 * write is stored, and no write whose connection was dropped unanswered was applied.
 */
describe.each(['SQLite', 'PostgreSQL'] as const)('deploy under load on %s', (storageName) => {
  let storage: ScenarioStorage;
  beforeAll(async () => {
    storage = await openScenarioStorage(storageName);
  });
  afterAll(async () => {
    await storage.remove();
  });

  it('drains on SIGTERM: no accepted request fails, the process exits 0', async () => {
    const seed = runSeed();
    const random = seededRandom(seed);
    const ledger = new WriteLedger();
    const service = await startService({ DATABASE_URL: storage.url }, storage.workDir);
    const load = new LoadGenerator({
      baseUrl: service.baseUrl,
      clients: 12,
      mix: { create: 3, update: 3, 'read-one': 3, list: 0.3, tags: 0.5, categories: 0.5, users: 0.5 },
      ledger,
      random,
      runId: 'deploy',
      maxDurationMs: 20_000,
      maxRequests: 20_000,
      deadlineMs: 15_000,
      stopOnRefused: true,
    }).start();
    const moment = SIGTERM_WINDOW_MS[0] + Math.floor(random() * (SIGTERM_WINDOW_MS[1] - SIGTERM_WINDOW_MS[0]));
    await sleep(moment);
    const sigtermAt = performance.now();
    service.process.kill('SIGTERM');
    const exitCode = await service.exited;
    const exitedAfter = Math.round(performance.now() - sigtermAt);
    const records = await load.stop();

    const restarted = await startService({ DATABASE_URL: storage.url }, storage.workDir);
    let report: ReturnType<typeof checkDurability>;
    try {
      report = checkDurability(ledger, await readStoredData(restarted.baseUrl));
    } finally {
      restarted.process.kill('SIGTERM');
      await restarted.exited;
    }

    const acceptedAndFailed = records.filter(
      (record) => (record.status === null && !notAccepted(record)) || (record.status ?? 0) >= 500,
    );
    const { '2xx': answered = 0, ...errors } = countByKind(records);
    const inFlightAtSigterm = records.filter((r) => r.startedAt < sigtermAt && r.endedAt > sigtermAt);
    recordScenario({
      scenario: 'deploy under load',
      storage: storageName,
      done: `12 clients, mixed traffic; SIGTERM after ${moment} ms; clients send until refused`,
      requests: records.length,
      errors,
      writesAcknowledged: report.acknowledged,
      writesFound: report.found,
      outcome:
        `exit ${exitCode} ${exitedAfter} ms after SIGTERM; ${inFlightAtSigterm.length} requests in flight at SIGTERM, ` +
        `${answered} answered 2xx in all; accepted requests that failed: ${acceptedAndFailed.length}; ` +
        `dropped-unanswered writes applied: ${report.unacknowledgedApplied}`,
      seed,
    });

    expect(exitCode).toBe(0);
    expect(acceptedAndFailed).toEqual([]);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(report.found).toBe(report.acknowledged);
    // A write whose connection was dropped unanswered was never read, so it is not stored.
    expect(report.unacknowledgedApplied).toBe(0);
    // The drain really happened under load: requests were in flight when SIGTERM came.
    expect(inFlightAtSigterm.length).toBeGreaterThan(0);
  }, 120_000);
});
