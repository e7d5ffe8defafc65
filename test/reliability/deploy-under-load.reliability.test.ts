import { setTimeout as sleep } from 'node:timers/promises';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { errorsByKind, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { recordScenario } from '../support/reliability-report';
import { openScenarioStorage, type ScenarioStorage } from '../support/scenario-storage';
import { startService } from '../support/service-process';

/** SIGTERM comes 1 to 2.5 s into the load. */
const SIGTERM_WINDOW_MS = [1_000, 2_500] as const;

/** A connection closed with no answer at all: the service never read what was sent on it. */
const droppedUnread = (record: RequestRecord) =>
  record.status === null && (record.failure === 'ECONNRESET' || record.failure === 'socket hang up');

/**
 * A deploy: SIGTERM to the built service while clients keep sending. The service must answer
 * every request it accepted (all sent before SIGTERM, in flight ones included), answer none
 * with a 5xx, and exit 0; afterwards every acknowledged write is stored. Requests sent after
 * SIGTERM may find the port closed (refused), or their connection closed before the service
 * read them (a keep-alive connection closed as idle, a connection still in the kernel's
 * backlog): the client gets no answer and may retry. That they were never read is proved for
 * the writes among them: none is stored.
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
    // Two streams: the moments do not depend on how many requests the clients picked before.
    const random = seededRandom(seed);
    const moments = seededRandom(seed + 1);
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
    const moment = SIGTERM_WINDOW_MS[0] + Math.floor(moments() * (SIGTERM_WINDOW_MS[1] - SIGTERM_WINDOW_MS[0]));
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

    // Accepted: sent before SIGTERM, so the service had the connection and, but for a drain, the request.
    const accepted = records.filter((record) => record.startedAt < sigtermAt);
    const afterSigterm = records.filter((record) => record.startedAt >= sigtermAt);
    const acceptedAndFailed = accepted.filter((record) => record.status === null || record.status >= 300);
    const inFlightAtSigterm = accepted.filter((record) => record.endedAt > sigtermAt);
    const dropped = afterSigterm.filter(droppedUnread);
    const droppedWrites = dropped.filter((record) => record.operation === 'create' || record.operation === 'update');
    recordScenario({
      file: 'deploy-under-load',
      scenario: 'deploy under load',
      storage: storageName,
      done: `12 clients, mixed traffic; SIGTERM after ${moment} ms; clients send until refused`,
      requests: records.length,
      errors: errorsByKind(records),
      writesAcknowledged: report.acknowledged,
      writesFound: report.found,
      outcome:
        `exit ${exitCode} ${exitedAfter} ms after SIGTERM; ${inFlightAtSigterm.length} in flight at SIGTERM, ` +
        `accepted requests that failed: ${acceptedAndFailed.length}; sent after SIGTERM: ` +
        `${afterSigterm.filter((r) => r.status !== null).length} answered, ` +
        `${afterSigterm.filter((r) => r.failure === 'ECONNREFUSED').length} refused, ` +
        `${dropped.length} closed unread (${droppedWrites.length} writes, ${report.unacknowledgedApplied} of them stored)`,
      seed,
    });

    expect(exitCode).toBe(0);
    // The drain: every request sent before SIGTERM, in flight ones included, is answered 2xx.
    expect(acceptedAndFailed).toEqual([]);
    expect(inFlightAtSigterm.length).toBeGreaterThan(0);
    // After SIGTERM: answered (never a 5xx), refused, or closed before the service read it.
    expect(afterSigterm.filter((r) => (r.status ?? 0) >= 500)).toEqual([]);
    expect(afterSigterm.filter((r) => r.status === null && r.failure !== 'ECONNREFUSED' && !droppedUnread(r))).toEqual(
      [],
    );
    // Unread for sure: none of the writes closed without an answer is stored.
    expect(report.unacknowledgedApplied).toBe(0);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(report.found).toBe(report.acknowledged);
  }, 120_000);
});
