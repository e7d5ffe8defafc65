import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type autocannon from 'autocannon';
import { withPostgresClient } from '../test/support/postgres-sql';
import type { PostgresServer } from './databases';
import { createAll, DATASET } from './dataset';
import { type ServerProcess, startServer } from './processes';
import { STACK_FLOOR } from './report';

/**
 * The stack floor (`--stack-floor <dir>`): the design card's stack built lean, a measuring stick
 * kept outside this repository (its README says how to build it). It has a schema of its own, so
 * it gets a database of its own on the bench's server, seeded like the service's dataset: 1,000
 * articles, 3 of 30 tags and 2 of 10 categories each, every tenth invisible. It serves only a get
 * by id and a create; `requestsFor` gives its requests for the scenarios that stand for those.
 */
export interface StackFloor {
  readonly server: ServerProcess;
  /** Its requests for a scenario of the service, or null when it has no such route. */
  requestsFor(scenarioKey: string): autocannon.Request[] | null;
  /** Removes what a create run added, so that every run starts from the same data. */
  removeCreated(): Promise<void>;
  /** As many creates as the service's dataset took, then removed: the service's history (run.ts). */
  giveHistory(): Promise<void>;
  close(): Promise<void>;
}

const termId = (kind: 'tag' | 'category', n: number) => `${kind === 'tag' ? 't' : 'c'}${String(n).padStart(24, '0')}`;

/** Its dataset, in its schema (table and column names as its schema.sql spells them). */
const SEED = `
INSERT INTO tag (id, name, description)
  SELECT 't' || lpad(n::text, 24, '0'), 'tag-' || lpad(n::text, 2, '0'), 'Tag ' || n FROM generate_series(0, ${DATASET.tags - 1}) n;
INSERT INTO category (id, name, description)
  SELECT 'c' || lpad(n::text, 24, '0'), 'category-' || n, NULL FROM generate_series(0, ${DATASET.categories - 1}) n;
INSERT INTO article (title, description, content, visible)
  SELECT 'Article ' || n, 'About article ' || n, repeat('Lorem ipsum dolor sit amet, consectetur adipiscing elit. ', 4),
         n % ${DATASET.invisibleEvery} <> 0
    FROM generate_series(1, ${DATASET.articles}) n;
INSERT INTO article_tag_tag ("articleId", "tagId")
  SELECT a.id, 't' || lpad(((a.id * 7 + k * 11) % ${DATASET.tags})::text, 24, '0') FROM article a, generate_series(0, 2) k;
INSERT INTO article_category_category ("articleId", "categoryId")
  SELECT a.id, 'c' || lpad(((a.id * 3 + k * 5) % ${DATASET.categories})::text, 24, '0') FROM article a, generate_series(0, 1) k;`;

export async function startStackFloor(
  directory: string,
  postgres: PostgresServer,
  nodeArgs: string[] = [],
): Promise<StackFloor> {
  const main = path.resolve(directory, 'dist', 'main.js');
  const schema = path.resolve(directory, 'schema.sql');
  if (!fs.existsSync(main) || !fs.existsSync(schema)) {
    throw new Error(`--stack-floor ${directory}: no dist/main.js and schema.sql there (build it first: its README)`);
  }
  const name = `stack_floor_${randomBytes(6).toString('hex')}`;
  await withPostgresClient(postgres.url, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgres.url);
  url.pathname = `/${name}`;
  await withPostgresClient(url.toString(), async (client) => {
    await client.query(fs.readFileSync(schema, 'utf8'));
    await client.query(SEED);
    await client.query('VACUUM ANALYZE');
  });
  const server = await startServer(
    STACK_FLOOR,
    main,
    { DATABASE_URL: url.toString(), LOG_FILE: '/dev/null' },
    nodeArgs,
  );
  const removeCreated = () =>
    withPostgresClient(url.toString(), async (client) => {
      await client.query(`DELETE FROM article WHERE id > ${DATASET.articles}`);
      await client.query('VACUUM ANALYZE article, article_tag_tag, article_category_category');
    });
  return {
    server,
    requestsFor: (scenarioKey) => STACK_FLOOR_REQUESTS[scenarioKey]?.() ?? null,
    removeCreated,
    giveHistory: async () => {
      const bodies = Array.from({ length: DATASET.articles }, (_, n) =>
        createWithIds(
          'history',
          n,
          (k) => termId('tag', k),
          (k) => termId('category', k),
        ),
      );
      await createAll(server.url, bodies);
      await removeCreated();
    },
    close: async () => {
      await server.stop();
      await withPostgresClient(postgres.url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

type TermIdOf = (n: number) => string;

/** A create of `create-ids` (scenarios.ts): a title of its own, 3 tags and 2 categories by id. */
function createWithIds(run: string, sequence: number, tagId: TermIdOf, categoryId: TermIdOf) {
  return {
    title: `Benchmark ${run} ${sequence}`,
    description: 'Created by the benchmark.',
    content: 'Written by the benchmark.',
    visible: false,
    tag: [0, 7, 14].map((k) => ({ id: tagId((sequence + k) % DATASET.tags) })),
    category: [0, 3].map((k) => ({ id: categoryId((sequence + k) % DATASET.categories) })),
  };
}

/** Its JSON text, as autocannon sends it. */
export function createWithIdsBody(run: string, sequence: number, tagId: TermIdOf, categoryId: TermIdOf): string {
  return JSON.stringify(createWithIds(run, sequence, tagId, categoryId));
}

const STACK_FLOOR_REQUESTS: Record<string, () => autocannon.Request[]> = {
  get: () => [
    {
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: `/article/${1 + Math.floor(Math.random() * DATASET.articles)}` }),
    },
  ],
  'create-ids': () => {
    const run = randomBytes(4).toString('hex');
    let sequence = 0;
    return [
      {
        method: 'POST',
        path: '/article/create',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: createWithIdsBody(
            run,
            ++sequence,
            (n) => termId('tag', n),
            (n) => termId('category', n),
          ),
        }),
      },
    ];
  },
};
