import { setTimeout as sleep } from 'node:timers/promises';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { errorsByKind, type RequestRecord } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { recordScenario } from '../support/reliability-report';
import { openScenarioStorage, type ScenarioStorage } from '../support/scenario-storage';
import { startService } from '../support/service-process';

/** Kills per storage; each at a random moment of a write-heavy load. */
const KILLS = 3;
/** The kill comes 0.5 to 4 s after the load starts. */
const KILL_WINDOW_MS = [500, 4_000] as const;

/**
 * kill -9 of the built service while creates and updates are in flight, then a restart on the
 * same database: every write that was answered 2xx must be stored, intact, and no write that
 * was not answered may be stored in part.
 */
describe.each(['SQLite', 'PostgreSQL'] as const)('crash durability on %s', (storageName) => {
  let storage: ScenarioStorage;
  beforeAll(async () => {
    storage = await openScenarioStorage(storageName);
  });
  afterAll(async () => {
    await storage.remove();
  });

  it('keeps every acknowledged write when the process is killed with SIGKILL at random moments', async () => {
    const seed = runSeed();
    // Two streams: the moments do not depend on how many requests the clients picked before.
    const random = seededRandom(seed);
    const moments = seededRandom(seed + 1);
    const ledger = new WriteLedger();
    const records: RequestRecord[] = [];
    const killedAfter: number[] = [];

    for (let kill = 0; kill < KILLS; kill++) {
      const service = await startService({ DATABASE_URL: storage.url }, storage.workDir);
      const load = new LoadGenerator({
        baseUrl: service.baseUrl,
        clients: 8,
        mix: { create: 4, update: 4, 'read-one': 1, list: 0.2 },
        ledger,
        random,
        runId: `k${kill}`,
        maxDurationMs: 20_000,
        maxRequests: 20_000,
        deadlineMs: 10_000,
        stopOnRefused: true,
      }).start();
      const moment = KILL_WINDOW_MS[0] + Math.floor(moments() * (KILL_WINDOW_MS[1] - KILL_WINDOW_MS[0]));
      await sleep(moment);
      service.process.kill('SIGKILL');
      await expect(service.exited).resolves.toBe('SIGKILL');
      records.push(...(await load.stop()));
      killedAfter.push(moment);
    }

    const service = await startService({ DATABASE_URL: storage.url }, storage.workDir);
    try {
      const report = checkDurability(ledger, await readStoredData(service.baseUrl));
      const errors = errorsByKind(records);
      recordScenario({
        file: 'crash-durability',
        scenario: 'crash durability',
        storage: storageName,
        done: `${KILLS} × (8 clients creating and updating, kill -9 after ${killedAfter.join(' / ')} ms, restart)`,
        requests: records.length,
        errors,
        writesAcknowledged: report.acknowledged,
        writesFound: report.found,
        outcome:
          `lost ${report.lost.length}, half-applied ${report.halfApplied.length}; ` +
          `unanswered writes: ${report.unacknowledgedApplied} stored whole, ${report.unacknowledgedAbsent} absent`,
        seed,
      });

      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.lost).toEqual([]);
      expect(report.halfApplied).toEqual([]);
      expect(report.rejectedButApplied).toEqual([]);
      expect(report.found).toBe(report.acknowledged);
      // Before each kill, every request is answered 2xx: the only failures are the kill's.
      const answeredErrors = Object.keys(errors).filter((kind) => kind.startsWith('http'));
      expect(answeredErrors).toEqual([]);
    } finally {
      service.process.kill('SIGTERM');
      await service.exited;
    }
  }, 180_000);
});
