import type autocannon from 'autocannon';
import { categoryName, type PreparedDataset, tagName } from './dataset';
import { BENCH_TOKEN } from './http-client';
import { createWithIdsBody } from './stack-floor';

/** One kind of request, sent over and over by every connection during a run. */
export interface Scenario {
  key: string;
  title: string;
  /**
   * The least service / Express floor req/s ratio (PostgreSQL, medians of the per-round ratios):
   * issue 27's, with the p99 at most 1.5 times the floor's. null: the scenario is judged by a
   * same-run ratio of the service's own (create with a key, replay).
   */
  target: number | null;
  /**
   * The least service / stack floor req/s ratio, with the p99 at most STACK_FLOOR_P99_FACTOR times
   * its (issue 39), for the scenarios the stack floor serves (stack-floor.ts).
   */
  stackFloorTarget?: number;
  /** Adds articles: the run is followed by removing them, so later runs see the same data. */
  addsArticles: boolean;
  /** Only when asked for by name (`--scenarios`): the floors cannot serve it. */
  onlyByName?: boolean;
  requests(dataset: PreparedDataset): autocannon.Request[];
  /** Runs before the warm-up of each measured run, against the server about to be loaded. */
  before?(baseUrl: string): Promise<void>;
  /** Checks an answer's body; without it, the body must start with the success wrapper. */
  verifyBody?(body: string): boolean;
  /** The one status every answer must have; without it, any 2xx. */
  status?: number;
  /** Measures something the floors do not do (a 304): only the service runs it. */
  serviceOnly?: boolean;
}

const WRITE_HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_TOKEN}` };

/** A published article's id: a draft would be a null answer to a reader without a token (the floors show it). */
const randomId = (dataset: PreparedDataset) => {
  const ids = dataset.visibleIds ?? dataset.ids;
  return ids[Math.floor(Math.random() * ids.length)] as number;
};

/** Created articles are invisible, so that GET /article keeps answering the dataset's list. */
const CREATE_BODY = { title: 'Benchmark', content: 'Written by the benchmark.', visible: false };

/**
 * Create bodies with a title of their own each, `Benchmark <run> <n>`: each create's slug (made
 * from its title) is free at the first try, one INSERT as most creates are. With one title for
 * every request, every create but the first would race the others for the next `-n` of one
 * slug, reading every slug taken so far at each try: the run measured that contention (a few
 * creates a second, 503s after 25 lost races), not a create.
 */
function uniqueCreateBodies(extra: object = {}): () => string {
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  let sequence = 0;
  return () => JSON.stringify({ ...CREATE_BODY, title: `Benchmark ${run} ${++sequence}`, ...extra });
}

/** Creates with no key, each with a title of its own (uniqueCreateBodies). */
function uniqueCreateRequests() {
  const body = uniqueCreateBodies();
  return [
    {
      method: 'POST' as const,
      path: '/article/create',
      headers: WRITE_HEADERS,
      setupRequest: (request: object) => ({ ...request, body: body() }),
    },
  ];
}

/** The list-304 scenario's ETag for the run under way (set by its `before`). */
let listTag = '';

/** The replay scenario's key for the run under way (set by its `before`). */
let replayKey = '';
/**
 * Whether the server of the replay run under way replays keys (set by its `before`): the service
 * does; a floor has no keys, and its column is a plain create, each with a title of its own.
 */
let replaysKeys = true;
const replayRequest = () => ({
  method: 'POST',
  headers: { ...WRITE_HEADERS, 'idempotency-key': replayKey },
  body: JSON.stringify(CREATE_BODY),
});

export const SCENARIOS: Scenario[] = [
  {
    key: 'get',
    title: 'GET /article/:id',
    target: 0.85,
    stackFloorTarget: 0.95,
    addsArticles: false,
    requests: (dataset) => [
      { method: 'GET', setupRequest: (request) => ({ ...request, path: `/article/${randomId(dataset)}` }) },
    ],
  },
  {
    // A get that carries the writers' token: with `--key` the service reads it as a key, a build
    // of before keys ignores it on a read (issue 37: a get with a key against one with API_TOKEN).
    key: 'get-bearer',
    title: 'GET /article/:id with a bearer token',
    target: null,
    addsArticles: false,
    onlyByName: true,
    requests: (dataset) => [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${BENCH_TOKEN}` },
        setupRequest: (request) => ({ ...request, path: `/article/${randomId(dataset)}` }),
      },
    ],
  },
  {
    key: 'list',
    title: 'GET /article',
    target: 1.5,
    addsArticles: false,
    requests: () => [{ method: 'GET', path: '/article' }],
  },
  {
    // A page of 20 from a random position: what a client paging the list sends. The floors answer
    // no page (they list everything), so this is for the service and a compared build
    // (--no-baseline --compare).
    key: 'page',
    title: 'GET /article?limit=20&after=…',
    target: null,
    addsArticles: false,
    onlyByName: true,
    requests: (dataset) => [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: `/article?limit=20&after=${randomId(dataset)}` }),
      },
    ],
  },
  {
    // Issue 27: revalidating the whole list with its current ETag, compared with `list` in the
    // same run (target: at least 3 times its req/s). The floors send no ETag.
    key: 'list-304',
    title: 'GET /article, If-None-Match',
    target: null,
    addsArticles: false,
    serviceOnly: true,
    status: 304,
    async before(baseUrl) {
      const answer = await fetch(`${baseUrl}/article`);
      await answer.arrayBuffer();
      listTag = answer.headers.get('etag') ?? '';
      if (answer.status !== 200 || !listTag)
        throw new Error(`GET /article answered ${answer.status}, ETag '${listTag}'`);
    },
    requests: () => [{ method: 'GET', path: '/article', headers: { 'if-none-match': listTag } }],
    verifyBody: (body) => body === '',
  },
  {
    key: 'create',
    title: 'POST /article/create',
    target: 0.85,
    addsArticles: true,
    requests: uniqueCreateRequests,
  },
  {
    key: 'create-ids',
    title: 'POST /article/create, 3 tags and 2 categories by id',
    target: 0.85,
    stackFloorTarget: 0.95,
    addsArticles: true,
    requests: (dataset) => {
      const { tagIds, categoryIds } = dataset;
      if (!tagIds || !categoryIds) throw new Error('create-ids needs the term ids of prepareDataset');
      const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      let sequence = 0;
      return [
        {
          method: 'POST',
          path: '/article/create',
          headers: WRITE_HEADERS,
          setupRequest: (request) => ({
            ...request,
            body: createWithIdsBody(
              run,
              ++sequence,
              (n) => tagIds[n] as string,
              (n) => categoryIds[n] as string,
            ),
          }),
        },
      ];
    },
  },
  {
    key: 'create-tags',
    title: 'POST /article/create, tag names',
    target: 0.85,
    addsArticles: true,
    requests: () => {
      const body = uniqueCreateBodies({
        tag: [{ name: tagName(3) }, { name: tagName(17) }],
        category: [{ name: categoryName(5) }],
      });
      return [
        {
          method: 'POST',
          path: '/article/create',
          headers: WRITE_HEADERS,
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ];
    },
  },
  {
    // Issue 16: every request a new key, so every one creates. The baseline has no keys: its
    // column is a plain create, and the figure that counts is the same-run ratio to `create`.
    key: 'create-key',
    title: 'POST /article/create, new key',
    target: null,
    addsArticles: true,
    requests: () => {
      const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      const body = uniqueCreateBodies();
      let sequence = 0;
      return [
        {
          method: 'POST',
          path: '/article/create',
          setupRequest: (request) => ({
            ...request,
            body: body(),
            headers: { ...WRITE_HEADERS, 'idempotency-key': `bench-${run}-${++sequence}` },
          }),
        },
      ];
    },
  },
  {
    // Issue 16: one key and body for the whole run, created before the warm-up (else the first
    // requests would meet the create in progress: 409), so every measured request is a replay.
    // Compared with `get` (same run); the baseline has no keys, its column is a plain create.
    key: 'replay',
    title: 'POST /article/create, replayed key',
    target: null,
    addsArticles: true,
    async before(baseUrl) {
      replayKey = `bench-replay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      const created = await fetch(`${baseUrl}/article/create`, replayRequest());
      await created.arrayBuffer();
      if (created.status !== 201) throw new Error(`the replay scenario's first create answered ${created.status}`);
      const again = await fetch(`${baseUrl}/article/create`, replayRequest());
      await again.arrayBuffer();
      if (!again.ok) throw new Error(`the replay scenario's second create answered ${again.status}`);
      replaysKeys = again.headers.get('idempotent-replayed') === 'true';
    },
    requests: () => {
      if (!replaysKeys) return uniqueCreateRequests();
      const { headers, body } = replayRequest();
      return [{ method: 'POST', path: '/article/create', headers, body }];
    },
  },
  {
    key: 'update',
    title: 'POST /article/update',
    target: 0.9,
    addsArticles: false,
    requests: (dataset) => {
      let sequence = 0;
      return [
        {
          method: 'POST',
          path: '/article/update',
          headers: WRITE_HEADERS,
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ id: randomId(dataset), title: `Updated ${++sequence}` }),
          }),
        },
      ];
    },
  },
];

export function selectScenarios(keys: readonly string[]): Scenario[] {
  if (keys.length === 0) return SCENARIOS.filter((scenario) => !scenario.onlyByName);
  const unknown = keys.filter((key) => !SCENARIOS.some((scenario) => scenario.key === key));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}: choose from ${SCENARIOS.map((s) => s.key).join(', ')}`);
  }
  return SCENARIOS.filter((scenario) => keys.includes(scenario.key));
}
