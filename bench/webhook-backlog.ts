import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Client } from 'pg';
import { type BenchDatabase, openPostgres } from './databases';
import { prepareDataset } from './dataset';
import { call, SERVICE_ENV } from './http-client';
import { measure, type RunFigures } from './measure';
import type { BenchOptions } from './options';
import { SERVICE } from './paths';
import { startServer } from './processes';
import { medianCpuRatio, medianRatio } from './report';
import { cleanUp, cleanups } from './run-main';
import { selectScenarios } from './scenarios';

/** Deliveries kept pending to a receiver that never answers, during the backlog's runs. */
const BACKLOG = 100;

type QueueState = 'idle' | 'backlog';

/**
 * A receiver in this process: `answers` (204 at once) or `hangs` (takes the request, never
 * answers: every attempt waits out its 10 s limit). Switching to `answers` ends the hung ones.
 */
async function startReceiver() {
  const hung = new Set<Socket>();
  let hangs = false;
  const server = http.createServer((request, response) => {
    request.resume();
    if (!hangs) return void request.on('end', () => response.writeHead(204).end());
    hung.add(request.socket);
    request.socket.once('close', () => hung.delete(request.socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hang(on: boolean) {
      hangs = on;
      if (!on) for (const socket of hung) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * `npm run bench -- webhooks`: the constraint of issue 38, delivery work never slows the API. One
 * service on PostgreSQL with a subscription (to `article.deleted`: the runs' creates record the
 * outbox's statements, as every create does once a subscription exists, and add no deliveries),
 * measured in alternating runs with an idle queue (no delivery pending, the receiver answers)
 * and with BACKLOG deliveries due to a receiver that never answers (each instance keeps 2
 * attempts hung for 10 s, claims every 500 ms, retries). Same process, same data: the ratio
 * backlog / idle is what delivery work costs a get and a create.
 */
export async function runWebhookBacklog(options: BenchOptions): Promise<void> {
  const scenarios = selectScenarios(options.scenarios.length > 0 ? options.scenarios : ['get', 'create']);
  const database = await openPostgres();
  cleanups.push(() => database.close());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const service = await startServer('service', SERVICE, {
    ...SERVICE_ENV,
    DATABASE_URL: database.url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  cleanups.push(() => service.stop());
  const dataset = await prepareDataset(service.url);
  await database.removeArticlesAfter(dataset.lastId);
  const subscription = await call<{ id: string }>(service.url, 'POST', '/webhook/create', {
    url: receiver.url,
    events: ['article.deleted'],
  });
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  cleanups.push(() => sql.end());
  const queue = { sql, subscriptionId: subscription.id, receiver, database };

  const runs = new Map<string, Record<QueueState, RunFigures[]>>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const scenario of scenarios) {
      // Each round swaps which state goes first, so that neither always follows the other.
      const order: QueueState[] = round % 2 === 1 ? ['idle', 'backlog'] : ['backlog', 'idle'];
      for (const state of order) {
        await setQueue(queue, state);
        const figures = await measure(service.url, scenario, dataset, options, service.cpuSeconds);
        service.checkAlive();
        const pending = await pendingOf(queue);
        if (scenario.addsArticles) await database.removeArticlesAfter(dataset.lastId);
        const byState = runs.get(scenario.key) ?? { idle: [], backlog: [] };
        byState[state].push(figures);
        runs.set(scenario.key, byState);
        console.log(
          `round ${round}/${options.rounds} ${scenario.title.padEnd(28)} ${state.padEnd(8)} ` +
            `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${figures.p99Ms.toFixed(1)} ms  ` +
            `cpu ${figures.cpuUsPerRequest?.toFixed(0) ?? '?'} µs/req  errors ${figures.errors}  pending after ${pending}`,
        );
      }
    }
  }
  await setQueue(queue, 'idle');
  console.log(`\n| scenario | backlog / idle, req/s (per round) | CPU per answer | target |`);
  console.log('|---|---|---|---|');
  for (const scenario of scenarios) {
    const { idle, backlog } = runs.get(scenario.key) ?? { idle: [], backlog: [] };
    const rounds = backlog.map((run, index) =>
      (run.requestsPerSecond / (idle[index]?.requestsPerSecond ?? Number.NaN)).toFixed(3),
    );
    const ratio = medianRatio(backlog, idle);
    console.log(
      `| ${scenario.title} | ${ratio.toFixed(3)} (${rounds.join(', ')}) | ${medianCpuRatio(backlog, idle).toFixed(3)} | ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'} |`,
    );
  }
  await cleanUp();
}

interface Queue {
  sql: Client;
  subscriptionId: string;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  database: BenchDatabase;
}

/** Idle: no delivery pending, the receiver answers. Backlog: BACKLOG due now, the receiver hangs. */
async function setQueue(queue: Queue, state: QueueState): Promise<void> {
  queue.receiver.hang(state === 'backlog');
  await queue.sql.query('DELETE FROM webhook_deliveries WHERE subscription_id = $1', [queue.subscriptionId]);
  if (state === 'idle') return;
  const article = JSON.stringify({
    title: 'Gone',
    description: 'd',
    content: 'c',
    publishedAt: Date.now(),
    featured: false,
    slug: 'gone',
    tags: [],
    categories: [],
    createdAt: Date.now(),
    updatedAt: Date.now(),
    version: 1,
    author: null,
  });
  await queue.sql.query(
    `INSERT INTO webhook_deliveries (subscription_id, event_id, type, article_id, article, occurred_at, state,
                                     attempts, next_attempt_at, created_at)
     SELECT $1, 'evt_bench_' || n, 'article.deleted', n, $2, now(), 'pending', 0, now(), now()
       FROM generate_series(1, $3::int) AS n`,
    [queue.subscriptionId, article, BACKLOG],
  );
}

async function pendingOf(queue: Queue): Promise<number> {
  const { rows } = await queue.sql.query<{ pending: string }>(
    "SELECT count(*) AS pending FROM webhook_deliveries WHERE subscription_id = $1 AND state = 'pending'",
    [queue.subscriptionId],
  );
  return Number(rows[0]?.pending ?? 0);
}
