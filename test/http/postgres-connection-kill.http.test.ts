import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ArticleState, bodyFor } from '../support/load/article-state';
import { checkDurability, readStoredData } from '../support/load/durability-check';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { WriteLedger, type WriteRecord } from '../support/load/write-ledger';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { LockHolder, PostgresSessions } from '../support/postgres-sessions';
import { jsonOf, RawHttpClient } from '../support/raw-http';
import { recordScenario } from '../support/reliability-report';
import { type RunningService, startService, stopService } from '../support/service-process';

const ROUNDS = 100;
const UNAVAILABLE = { statusCode: 10001, data: null, message: 'storage is unavailable, try again later' };

/**
 * The worst moment for a connection to die: inside a write's transaction. The test holds a
 * lock the write needs (an uncommitted tag of the same name, or the article's row), waits
 * until the service's session is blocked on it, so that the transaction is certainly open
 * with a statement in flight, and ends that session from a second one. Half the rounds let
 * go of the lock first and end the session a moment later, so the kill lands anywhere in the
 * rest of the transaction: between two statements, during COMMIT, or after it. Each round
 * varies the write (create or update), the lock, and the moment.
 *
 * Asserted, every round: the process lives, the request is answered, 2xx or the 503 wrapper;
 * at the end every acknowledged write is stored intact, and nothing that failed is stored in
 * part or twice.
 */
describe('a request whose PostgreSQL session is ended inside its transaction', () => {
  let database: PostgresFixture;
  let service: RunningService;
  let workDir: string;
  let sessions: PostgresSessions;
  let holder: LockHolder;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-kill-'));
    database = await createPostgresFixture();
    service = database.closeAtTeardown(await startService({ DATABASE_URL: database.url }, workDir), stopService);
    sessions = database.closeAtTeardown(await PostgresSessions.open(database.url), (opened) => opened.close());
    holder = database.closeAtTeardown(await LockHolder.open(database.url), (opened) => opened.close());
  }, 60_000);
  afterAll(async () => {
    await database?.teardown();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it(`lives, answers 2xx or 503, and keeps every write whole, over ${ROUNDS} kills at varied moments`, async () => {
    const seed = runSeed();
    const random = seededRandom(seed);
    const http = new RawHttpClient(service.baseUrl, { maxSockets: 1, deadlineMs: 20_000 });
    const ledger = new WriteLedger();
    let exited = false;
    void service.exited.then(() => {
      exited = true;
    });
    const mustLive = async (round: number) => {
      // An 'error' event nobody hears ends the process just after the answer: give it that moment.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (exited) throw new Error(`the service exited in round ${round} (seed ${seed}):\n${service.stderr()}`);
    };
    const statuses: Record<string, number> = {};
    let slowestMs = 0;
    let unblocked = 0;
    try {
      // A few articles to update, written without interference.
      for (let i = 0; i < 5; i++) {
        const token = `kill-${seed}-start-${i}`;
        const state: ArticleState = {
          title: `c ${token}`,
          content: `start ${i} of seed ${seed}`,
          visible: true,
          tags: [`t-${token}`],
          categories: ['cat-0'],
        };
        const write = ledger.begin('create', token, state, null);
        const created = await http.postJson('/article/create', bodyFor(state));
        settle(ledger, write, created.kind === 'answered' ? created.status : null, jsonOf(created));
      }
      for (let round = 0; round < ROUNDS; round++) {
        const owned = ledger.ownedBy(0);
        const target = random() < 0.5 ? owned[Math.floor(random() * owned.length)] : undefined;
        const token = `kill-${seed}-${round}`;
        const heldTag = `held-${token}`;
        const state: ArticleState = {
          title: `${target === undefined ? 'c' : 'u'} ${token}`,
          content: `round ${round} of seed ${seed}`,
          visible: true,
          tags: [`t-${token}`, heldTag, `shared-${round % 3}`],
          categories: [`cat-${round % 2}`],
        };
        // An update waits on its article's row or on the new tag; a create on the new tag.
        if (target !== undefined && random() < 0.5) {
          await holder.hold('SELECT 1 FROM articles WHERE id = $1 FOR UPDATE', [target]);
        } else {
          await holder.hold('INSERT INTO tags (id, name) VALUES ($1, $2)', [`h${round}-${seed}`.slice(0, 32), heldTag]);
        }
        const write = ledger.begin(target === undefined ? 'create' : 'update', token, state, target ?? null);
        const sentAt = performance.now();
        const answer = http.postJson(
          target === undefined ? '/article/create' : '/article/update',
          bodyFor(state, target),
        );

        // A connection ended in an earlier round may still sit in the pool, unnoticed: a request
        // handed that one fails before it reaches the lock, with a 503 (counted, not a kill).
        const blocked = await Promise.race([sessions.blockedBy(holder.pid), answer.then(() => null)]);
        if (blocked === null) {
          unblocked++;
          await holder.release();
        } else if (random() < 0.5) {
          await sessions.terminate(blocked);
          await holder.release();
        } else {
          await holder.release();
          // Let the transaction run on for 0 to 15 ms before its session ends: the kill then lands
          // between two statements, in COMMIT, or after it, on a connection back in the pool.
          await sleep(random() * 15);
          await sessions.terminate(blocked);
        }
        if (blocked !== null) await sessions.waitUntilGone(blocked);

        const exchange = await answer;
        slowestMs = Math.max(slowestMs, performance.now() - sentAt);
        await mustLive(round);
        const status = exchange.kind === 'answered' ? exchange.status : exchange.code;
        statuses[status] = (statuses[status] ?? 0) + 1;
        settle(ledger, write, exchange.kind === 'answered' ? exchange.status : null, jsonOf(exchange));
        if (exchange.kind === 'answered' && exchange.status === 503) expect(jsonOf(exchange)).toEqual(UNAVAILABLE);
      }

      const report = checkDurability(ledger, await readStoredData(service.baseUrl));
      recordScenario({
        file: 'postgres-connection-kill',
        scenario: 'session ended inside a write transaction',
        storage: await serverLabel(database.url),
        done: `${ROUNDS} writes (creates and updates with tag and category names), each blocked on a lock the test holds, its session ended while blocked or 0-15 ms after the lock is let go`,
        requests: ROUNDS,
        errors: Object.fromEntries(
          Object.entries(statuses)
            .filter(([status]) => status !== '200' && status !== '201')
            .map(([status, count]) => [`http ${status}`, count]),
        ),
        writesAcknowledged: report.acknowledged,
        writesFound: report.found,
        outcome:
          `process alive, process restarts: 0; slowest answer ${Math.round(slowestMs)} ms; ` +
          `${unblocked} rounds met a connection ended in an earlier round before the lock; ` +
          `half-applied ${report.halfApplied.length}; failed writes stored whole ${report.unacknowledgedApplied}, absent ${report.unacknowledgedAbsent}`,
        seed,
      });
      // Every answer is a 2xx or the 503 wrapper: never a 500, never silence.
      expect(Object.keys(statuses).filter((status) => !['200', '201', '503'].includes(status))).toEqual([]);
      expect(report.lost).toEqual([]);
      expect(report.halfApplied).toEqual([]);
      expect(report.found).toBe(report.acknowledged);
      // No write stored twice: one article per create's content at most.
      const stored = await readStoredData(service.baseUrl);
      const contents = stored.articles.map((article) => article.content);
      expect(contents.length).toBe(new Set(contents).size);
      // The kills did land inside transactions (most rounds), and updates were among the writes.
      expect(unblocked).toBeLessThan(ROUNDS / 4);
      expect(statuses['503'] ?? 0).toBeGreaterThan(0);
      expect(ledger.writes.filter((write) => write.kind === 'update').length).toBeGreaterThan(0);
      // And the service serves normally afterwards.
      const after = await http.postJson('/article/create', { content: `after seed ${seed}`, tag: [{ name: 'after' }] });
      expect(after.kind === 'answered' && after.status).toBe(201);
    } finally {
      http.close();
    }
  }, 120_000);
});

async function serverLabel(url: string): Promise<string> {
  const sessions = await PostgresSessions.open(url);
  try {
    const [row] = await sessions.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
    return `PostgreSQL ${row?.version.split(' ')[0]}`;
  } finally {
    await sessions.close();
  }
}

function settle(ledger: WriteLedger, write: WriteRecord, status: number | null, body: unknown): void {
  const id = (body as { data?: { id?: number } } | undefined)?.data?.id;
  if (status !== null && status >= 200 && status < 300) {
    ledger.settle(write, 'acked', `HTTP ${status}`, id);
    if (write.kind === 'create' && id !== undefined) ledger.own(0, id);
  } else if (status !== null && status >= 400 && status < 500) ledger.settle(write, 'rejected', `HTTP ${status}`);
  else ledger.settle(write, 'failed', status === null ? 'no answer' : `HTTP ${status}`);
}
