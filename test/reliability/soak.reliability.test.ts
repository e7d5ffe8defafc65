import fs from 'node:fs';
import path from 'node:path';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { type MemorySample, megabytes, memoryTrend } from '../support/load/memory-trend';
import { errorsByKind, latencyOf } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { RESULTS_DIR, recordScenario } from '../support/reliability-report';
import { openScenarioStorage, type ScenarioStorage } from '../support/scenario-storage';
import { startService } from '../support/service-process';

/** Three minutes by default; RELIABILITY_SOAK_SECONDS changes it, up to ten. */
const SOAK_MS = Math.min(600, Number(process.env.RELIABILITY_SOAK_SECONDS) || 180) * 1_000;
const SAMPLE_EVERY_MS = 5_000;
/** The first samples are the warm-up (JIT, pools filling, caches): not part of the trend. */
const WARM_UP_MS = 30_000;
/** Retained heap may wander by a few MB with what the last requests left; a leak keeps growing. */
const HEAP_GROWTH_ALLOWED = 4 * 1_048_576;

/**
 * A bounded soak: the built service on PostgreSQL under steady mixed traffic from this test's
 * process (a second process, on 127.0.0.1) for a few minutes, its memory sampled after a full
 * GC. Required: no error of any kind, and no growth trend in the heap it retains.
 */
describe('soak', () => {
  let storage: ScenarioStorage;
  beforeAll(async () => {
    storage = await openScenarioStorage('PostgreSQL');
  });
  afterAll(async () => {
    await storage.remove();
  });

  it(
    'serves mixed traffic for minutes without an error or a growing heap',
    async () => {
      const seed = runSeed();
      const samples: MemorySample[] = [];
      const service = await startService(
        { DATABASE_URL: storage.url, MEMORY_PROBE_MS: String(SAMPLE_EVERY_MS) },
        storage.workDir,
        {
          nodeArgs: ['--expose-gc', '--require', path.join(__dirname, '../support/memory-probe.cjs')],
          onJsonLine: (entry) => {
            if (entry.probe === 'memory') samples.push(entry as unknown as MemorySample);
          },
        },
      );
      const ledger = new WriteLedger();
      let records: Awaited<ReturnType<LoadGenerator['stop']>>;
      let report: ReturnType<typeof checkDurability>;
      try {
        const load = new LoadGenerator({
          baseUrl: service.baseUrl,
          clients: 4,
          paceMs: 25,
          mix: { create: 1, update: 4, 'read-one': 8, list: 0.3, tags: 1, categories: 1, users: 1, seed: 0.05 },
          ledger,
          random: seededRandom(seed),
          runId: 'soak',
          maxDurationMs: SOAK_MS,
          maxRequests: 200_000,
          deadlineMs: 15_000,
        }).start();
        await load.finished();
        records = await load.stop();
        report = checkDurability(ledger, await readStoredData(service.baseUrl));
      } finally {
        service.process.kill('SIGTERM');
      }
      const exitCode = await service.exited;

      const start = samples[0]?.at ?? 0;
      const measured = samples.filter((sample) => sample.at - start >= WARM_UP_MS);
      const heap = memoryTrend(measured, 'heapUsed');
      const rss = memoryTrend(measured, 'rss');
      const latencies = records.map(latencyOf).sort((a, b) => a - b);
      const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
      const errors = errorsByKind(records);
      recordScenario({
        file: 'soak',
        scenario: 'soak',
        storage: 'PostgreSQL',
        done:
          `${SOAK_MS / 1000} s, 4 clients at ≤ 40 req/s each: reads, updates, creates, lists, terms, seeds, users; ` +
          `memory sampled after a full GC every ${SAMPLE_EVERY_MS / 1000} s`,
        requests: records.length,
        errors,
        writesAcknowledged: report.acknowledged,
        writesFound: report.found,
        outcome:
          `${Math.round(records.length / (SOAK_MS / 1000))} req/s, p99 ${Math.round(p99)} ms; ` +
          `heap after GC ${megabytes(heap.firstThird)} → ${megabytes(heap.lastThird)} ` +
          `(trend ${megabytes(heap.slopePerMinute)}/min over ${heap.samples} samples after a ${WARM_UP_MS / 1000} s warm-up); ` +
          `RSS ${megabytes(rss.firstThird)} → ${megabytes(rss.lastThird)} (trend ${megabytes(rss.slopePerMinute)}/min); ` +
          `exit ${exitCode}`,
        seed,
      });

      // Every sample, one JSON line each, for a closer look than the row gives (test-artifacts/
      // is not committed). Not .json: the report reads every .json file there as a row.
      const lines = samples.map((sample) => JSON.stringify(sample)).join('\n');
      fs.writeFileSync(path.join(RESULTS_DIR, 'soak-memory-samples.jsonl'), `${lines}\n`);

      expect(errors).toEqual({});
      expect(report.lost).toEqual([]);
      expect(report.halfApplied).toEqual([]);
      expect(report.found).toBe(report.acknowledged);
      expect(exitCode).toBe(0);
      expect(heap.samples).toBeGreaterThanOrEqual(10);
      // No growth trend: the heap retained at the end is the heap retained at the start.
      expect(heap.lastThird - heap.firstThird).toBeLessThan(HEAP_GROWTH_ALLOWED);
      expect(heap.slopePerMinute * ((SOAK_MS - WARM_UP_MS) / 60_000)).toBeLessThan(HEAP_GROWTH_ALLOWED);
    },
    SOAK_MS + 120_000,
  );
});
