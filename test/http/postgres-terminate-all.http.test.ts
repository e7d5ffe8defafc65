import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { LoadGenerator } from '../support/load/load-generator';
import { countByKind } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger } from '../support/load/write-ledger';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { PostgresSessions } from '../support/postgres-sessions';
import { RawHttpClient } from '../support/raw-http';
import { type RunningService, startService, stopService } from '../support/service-process';

const CLIENTS = 20;
const KILL_EVERY_MS = 150;
const KILLING_FOR_MS = 3_000;
const UNAVAILABLE_MESSAGE = 'storage is unavailable, try again later';

/**
 * Every session of the service ended (pg_terminate_backend) again and again while 20 clients
 * send traffic, half of it writes with tag and category names, so that sessions die idle,
 * mid-statement and mid-transaction. With WORKERS=2, both server processes live through it
 * and the primary replaces none. The killing is bounded in time, its effects are not timed.
 */
describe.each([
  ['one server process', {}],
  ['WORKERS=2', { WORKERS: '2' }],
])('every PostgreSQL session of the service ended repeatedly under write load (%s)', (_name, env) => {
  let database: PostgresFixture;
  let service: RunningService;
  let workDir: string;
  let sessions: PostgresSessions;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-terminate-'));
    database = await createPostgresFixture();
    service = database.closeAtTeardown(
      await startService({ DATABASE_URL: database.url, ...env }, workDir),
      stopService,
    );
    sessions = database.closeAtTeardown(await PostgresSessions.open(database.url), (opened) => opened.close());
  }, 60_000);
  afterAll(async () => {
    await database?.teardown();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('no process dies or is replaced, every answer is 2xx or the 503 wrapper, every acknowledged write is whole', async () => {
    const seed = runSeed();
    const ledger = new WriteLedger();
    const load = new LoadGenerator({
      baseUrl: service.baseUrl,
      clients: CLIENTS,
      mix: { create: 2, update: 2, 'read-one': 3, list: 0.5, tags: 0.25, categories: 0.25 },
      ledger,
      random: seededRandom(seed),
      runId: `terminate-${seed}`,
      maxDurationMs: 30_000,
      maxRequests: 20_000,
      paceMs: 20,
      deadlineMs: 20_000,
    }).start();

    await sleep(500);
    let killed = 0;
    const until = performance.now() + KILLING_FOR_MS;
    while (performance.now() < until) {
      killed += await sessions.terminateAll();
      await sleep(KILL_EVERY_MS);
    }
    const records = await load.stop();
    const alive = service.process.exitCode === null && service.process.signalCode === null;
    expect(alive ? 'alive' : `exited:\n${service.stderr()}`).toBe('alive');
    expect(service.logLines.filter((line) => line.msg === 'a worker exited unexpectedly')).toEqual([]);

    // Serving again: a few writes in a row succeed (bounded in count, not timed).
    const http = new RawHttpClient(service.baseUrl, { maxSockets: 1, deadlineMs: 20_000 });
    let successes = 0;
    for (let attempt = 0; attempt < 200 && successes < 5; attempt++) {
      const answer = await http.postJson('/article/create', { content: `after ${attempt}`, tag: [{ name: 'after' }] });
      successes = answer.kind === 'answered' && answer.status === 201 ? successes + 1 : 0;
      if (successes === 0) await sleep(50);
    }
    http.close();

    const report = checkDurability(ledger, await readStoredData(service.baseUrl));
    expect(killed).toBeGreaterThan(0);
    // Every request answered, with a 2xx or the 503 wrapper.
    const kinds = countByKind(records);
    expect(Object.keys(kinds).filter((kind) => kind !== '2xx' && kind !== 'http 503')).toEqual([]);
    expect(records.filter((record) => record.status === 503 && record.message !== UNAVAILABLE_MESSAGE)).toEqual([]);
    expect(successes).toBe(5);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.halfApplied).toEqual([]);
    expect(report.found).toBe(report.acknowledged);
  }, 90_000);
});
