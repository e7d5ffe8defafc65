import { Client } from 'pg';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';

/** Articles written after the plan is made: enough that a scan of them all is far from a lookup. */
const GROWN_TO = 5_000;

/** The lookup PostgreSQL's foreign-key check runs against articles for every link a create inserts. */
const KEY_SHARE_LOOKUP = 'SELECT 1 FROM ONLY articles x WHERE id = $1 FOR KEY SHARE OF x';

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

const nodeTypes = (node: PlanNode): string[] => [node['Node Type'], ...(node.Plans ?? []).flatMap(nodeTypes)];

/**
 * A pooled session keeps its prepared statements, the foreign-key checks' among them, with the
 * plan PostgreSQL chose once, until the table's statistics change (ANALYZE, VACUUM). A table
 * analyzed while empty is planned as empty: a scan of every row, kept as it grows. Every link a
 * create wrote then read all of articles, until autovacuum first analyzed it: through the API,
 * the first 40,000 creates of a new database ran three times slower, slowing as they went.
 * A table never analyzed is planned as at least ten pages, where the key's index wins.
 */
describe('a new PostgreSQL database, migrated, then growing', () => {
  let fixture: PostgresFixture;
  const session = async (): Promise<Client> => {
    const client = fixture.closeAtTeardown(new Client({ connectionString: fixture.url }), (opened) => opened.end());
    await client.connect();
    return client;
  };

  beforeAll(async () => {
    fixture = await createPostgresFixture();
    await (await openDataSource({ kind: 'postgres', url: fixture.url })).destroy();
  });

  afterAll(() => fixture.teardown());

  it('looks articles up by key, in a plan its sessions made while it was empty', async () => {
    const [planner, writer] = await Promise.all([session(), session()]);
    // Autovacuum would analyze the grown table whenever it came by, and replan by chance.
    await writer.query('ALTER TABLE articles SET (autovacuum_enabled = off)');
    await planner.query(`PREPARE key_share (integer) AS ${KEY_SHARE_LOOKUP}`);
    // Five custom plans, then PostgreSQL settles on the plan it keeps for the session.
    for (let id = 1; id <= 6; id++) await planner.query(`EXECUTE key_share (${id})`);

    await writer.query(
      `INSERT INTO articles (title, description, content, visible, created_at, updated_at, version,
                             search_title, search_description, search_content, published_at, featured, slug)
       SELECT 'Article ' || n, 'd', 'c', true, now(), now(), 1, 'article ' || n, 'd', 'c', now(), false, 'article-' || n
         FROM generate_series(1, $1::integer) AS n`,
      [GROWN_TO],
    );

    const [explained] = (await planner.query('EXPLAIN (FORMAT JSON) EXECUTE key_share (1)')).rows;
    const nodes = nodeTypes(explained['QUERY PLAN'][0].Plan);
    expect(nodes).not.toContain('Seq Scan');
    expect(nodes.some((type) => type.startsWith('Index'))).toBe(true);
  });
});
