import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { countByKind, errorsByKind } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { groupGone, type NpmStart, npmStart } from '../support/npm-start';
import { jsonOf, RawHttpClient } from '../support/raw-http';

/** One minute by default (the issue's floor); SOAK_SECONDS changes it, up to ten. */
const SOAK_MS = Math.min(600, Number(process.env.SOAK_SECONDS) || 60) * 1_000;
const CLIENTS = 20;
const GC_PRESSURE = path.join(__dirname, '../support/gc-pressure.cjs');

/**
 * The product's default path under load: `npm start` with no storage set but a file of its own
 * (the embedded SQLite), 20 clients of mixed traffic for a minute, whole lists among them (each
 * opens a read-only connection of its own that the collector frees later), while the garbage
 * collector runs outside any JavaScript call ten times a second (test/support/gc-pressure.cjs).
 * The service must never exit, no request may fail, every acknowledged create must be read
 * back, and SIGTERM to npm must end it all cleanly. better-sqlite3 12 built against Node.js
 * 24.19+'s headers aborts the process here (Node.js issue 65446).
 */
describe('npm start on the embedded SQLite under 20 clients', () => {
  let workDir: string;
  let started: NpmStart | undefined;
  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-soak-'));
  });
  afterAll(() => {
    started?.killAll();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it(
    'serves mixed traffic without an exit or a failed request, keeps every acknowledged create, and stops on SIGTERM',
    async () => {
      const seed = runSeed();
      started = await npmStart({
        // SOAK_STORAGE=default: no DATABASE_URL at all, the service's own ./data/blog.sqlite in the
        // checkout (for a by-hand run on a clean clone); by default a file of the test's own.
        ...(process.env.SOAK_STORAGE === 'default'
          ? {}
          : { DATABASE_URL: `sqlite:${path.join(workDir, 'blog.sqlite')}` }),
        NODE_OPTIONS: `--require ${GC_PRESSURE}`,
        GC_PRESSURE_MS: '10',
      });

      const ledger = new WriteLedger();
      const load = new LoadGenerator({
        baseUrl: started.baseUrl,
        clients: CLIENTS,
        mix: { create: 3, update: 3, 'read-one': 6, list: 1, page: 3, search: 2, delete: 1, tags: 0.5 },
        ledger,
        random: seededRandom(seed),
        runId: 'soak',
        maxDurationMs: SOAK_MS,
        maxRequests: 1_000_000,
        deadlineMs: 15_000,
        stopOnRefused: true,
      }).start();
      await load.finished();
      const records = await load.stop();
      // A server that died ended the load (stopOnRefused): its exit is known within a moment.
      const serverExit = await Promise.race([started.exited, sleep(1_000, undefined, { ref: false })]);

      const report = serverExit === undefined ? checkDurability(ledger, await readStoredData(started.baseUrl)) : null;
      const deletedButFound = serverExit === undefined ? await foundOf(started.baseUrl, load.deleted) : [];

      started.npm.kill('SIGTERM');
      const npmExit = await Promise.race([started.exited, sleep(10_000, 'still running', { ref: false })]);
      const gone = await groupGone(started, 10_000);

      const counts = countByKind(records);
      console.log(
        `soak (seed ${seed}, ${process.version}): ${records.length} requests in ${SOAK_MS / 1000} s, ` +
          `${JSON.stringify(counts)}; ${report?.acknowledged ?? 0} writes acknowledged, ${report?.found ?? 0} found; ` +
          `${load.deleted.length} created and deleted; npm exit ${npmExit}`,
      );

      expect({ serverExit, stderr: serverExit === undefined ? '' : started.stderr().slice(0, 1_500) }).toEqual({
        serverExit: undefined,
        stderr: '',
      });
      const failed = records.filter((record) => record.status === null || record.status >= 300);
      expect({ errors: errorsByKind(records), first: failed.slice(0, 5) }).toEqual({ errors: {}, first: [] });
      expect(records.length).toBeGreaterThan(CLIENTS * 10);
      expect(records.some((record) => record.operation === 'list')).toBe(true);
      expect(report?.lost).toEqual([]);
      expect(report?.halfApplied).toEqual([]);
      expect(report?.found).toBe(report?.acknowledged);
      expect(ledger.count('acked')).toBeGreaterThan(0);
      expect(load.deleted.length).toBeGreaterThan(0);
      expect(deletedButFound).toEqual([]);
      expect(npmExit).toBe(0);
      expect(gone).toBe(true);
    },
    SOAK_MS + 240_000,
  );
});

/** The ids whose GET /article/:id does not answer 200 with `data: null` (the contract's "missing"). */
async function foundOf(baseUrl: string, ids: readonly number[]): Promise<string[]> {
  const http = new RawHttpClient(baseUrl, { maxSockets: 1 });
  try {
    const found: string[] = [];
    for (const id of ids) {
      const exchange = await http.get(`/article/${id}`);
      const answer = jsonOf(exchange) as { data?: unknown } | undefined;
      if (exchange.kind !== 'answered' || exchange.status !== 200 || answer?.data !== null) {
        found.push(`${id}: ${exchange.kind === 'answered' ? `${exchange.status} ${exchange.text}` : exchange.code}`);
      }
    }
    return found;
  } finally {
    http.close();
  }
}
