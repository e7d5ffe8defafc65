import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { slugFromTitle, slugWithSuffix } from '../../src/domain/slug';
import type { SqlDatabaseConfig } from '../../src/infrastructure/config/config';
import { dataSourceOptions, openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { MIGRATIONS } from '../../src/infrastructure/persistence/typeorm/migrations';
import { PUBLISHING_BATCH } from '../../src/infrastructure/persistence/typeorm/migrations/backfill-publishing';
import { SLUG_LOCK_KEY } from '../../src/infrastructure/persistence/typeorm/migrations/postgres/1795700000000-publishing';
import { createPostgresDatabase, createSqlDatabase } from '../support/test-databases';

type Kind = 'postgres' | 'sqlite';

/** More than two backfill batches, so that a title collides across a batch's seam. */
const ARTICLES = 2 * PUBLISHING_BATCH + 105;

/**
 * Titles of the articles written before the migration, by position (id = position + 1):
 * collisions within and across batches, a title that is another's suffixed slug, Han and
 * Cyrillic, titles with nothing to keep, null titles, and the title whose slug the previous
 * release's trigger will want for the next id.
 */
function titleAt(index: number): string | null {
  const special: Record<number, string | null> = {
    0: 'Hello World',
    1: 'Hello, world!',
    2: '北京欢迎你',
    3: 'Привет, мир',
    4: null,
    5: null,
    6: 'Article',
    7: 'hello-world-2',
    8: '!!!',
    // Slugs the trigger could choose for a new article: their batches take the slug lock.
    9: 'Article 999999',
    [PUBLISHING_BATCH]: 'Article 999998',
    [PUBLISHING_BATCH + 500]: 'Hello World',
    [ARTICLES - 2]: `Article ${ARTICLES + 1}`,
    [ARTICLES - 1]: 'Привет, мир',
  };
  return index in special ? (special[index] as string | null) : `Filler ${index}`;
}

const visibleAt = (index: number) => index % 3 !== 1;

/** The slug rule, written plainly: each article in id order gets the first of base, base-2, … that is free. */
function expectedSlugs(titles: readonly (string | null)[]): string[] {
  const taken = new Set<string>();
  return titles.map((title) => {
    const base = slugFromTitle(title);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = slugWithSuffix(base, n);
    taken.add(slug);
    return slug;
  });
}

const param = (kind: Kind, n: number) => (kind === 'postgres' ? `$${n}` : '?');
/** created_at of the article at `index`: one second apart, in each database's own text form. */
const createdAt = (kind: Kind, index: number) => {
  const text = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString().replace('T', ' ').replace('Z', '');
  return kind === 'postgres' ? `${text}Z` : text;
};

/**
 * The migrations before the publishing one (those after it, if any, run with it), and when
 * `alsoPending` is given, from that one on.
 */
function migrationsBefore(kind: Kind, alsoPending?: string): Function[] {
  const all = MIGRATIONS[kind];
  const first = all.findIndex((migration) =>
    [alsoPending ?? 'Publishing', 'Publishing'].some((name) => migration.name.startsWith(name)),
  );
  return all.slice(0, first);
}

/** A database at an earlier schema, with ARTICLES articles written as the previous release writes them. */
async function databaseBefore(database: SqlDatabaseConfig, kind: Kind, alsoPending?: string): Promise<void> {
  const options = dataSourceOptions(database);
  const before = new DataSource({ ...options, migrations: migrationsBefore(kind, alsoPending) } as typeof options);
  await before.initialize();
  try {
    await before.runMigrations();
    const search = alsoPending === 'ArticleSearch' ? '' : ', search_title, search_description, search_content';
    const perRow = search ? 8 : 5;
    for (let start = 0; start < ARTICLES; start += 500) {
      const indexes = Array.from({ length: Math.min(500, ARTICLES - start) }, (_, i) => start + i);
      const values = indexes.map((index) => {
        const p = (k: number) => param(kind, (index - start) * perRow + k);
        const folded = search ? `, ${p(6)}, ${p(7)}, ${p(8)}` : '';
        return `(${p(1)}, 'd', 'c', ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}${folded})`;
      });
      await before.query(
        `INSERT INTO articles (title, description, content, visible, created_at, updated_at, version${search})
         VALUES ${values.join(', ')}`,
        indexes.flatMap((index) => {
          const title = titleAt(index);
          // better-sqlite3 binds no booleans.
          const visible = kind === 'postgres' ? visibleAt(index) : Number(visibleAt(index));
          const row = [title, visible, createdAt(kind, index), createdAt(kind, index), 1];
          return search ? [...row, title?.toLowerCase() ?? null, 'd', 'c'] : row;
        }),
      );
    }
  } finally {
    await before.destroy();
  }
}

async function migrate(database: SqlDatabaseConfig): Promise<void> {
  const dataSource = await openDataSource(database);
  await dataSource.destroy();
}

interface Checked {
  slugs: string[];
  wrongPublishedAt: unknown[];
  featured: unknown[];
}

/** The articles' slugs in id order, and the ids whose published_at is not created_at-if-visible. */
async function readBack(database: SqlDatabaseConfig, kind: Kind): Promise<Checked> {
  const dataSource = await openDataSource(database);
  try {
    const rows: { slug: string }[] = await dataSource.query('SELECT slug FROM articles ORDER BY id');
    const distinct = kind === 'postgres' ? 'IS DISTINCT FROM' : 'IS NOT';
    const wrongPublishedAt = await dataSource.query(
      `SELECT id FROM articles WHERE published_at ${distinct} CASE WHEN visible THEN created_at END`,
    );
    const featured = await dataSource.query('SELECT id FROM articles WHERE featured');
    return { slugs: rows.map((row) => row.slug), wrongPublishedAt, featured };
  } finally {
    await dataSource.destroy();
  }
}

const TITLES = Array.from({ length: ARTICLES }, (_, index) => titleAt(index));
const EXPECTED = expectedSlugs(TITLES);

describe('the slug rule the migration follows, on these titles', () => {
  it('keeps the first of a slug, suffixes the later ones, and transliterates', () => {
    expect(EXPECTED.slice(0, 9)).toEqual([
      'hello-world',
      'hello-world-2',
      slugFromTitle('北京欢迎你'),
      'privet-mir',
      'article',
      'article-2',
      'article-3',
      'hello-world-2-2',
      'article-4',
    ]);
    expect(EXPECTED[2]).toMatch(/^[a-z]+(-[a-z]+)+$/);
    expect(EXPECTED[PUBLISHING_BATCH + 500]).toBe('hello-world-3');
    expect(EXPECTED[ARTICLES - 1]).toBe('privet-mir-2');
    expect(new Set(EXPECTED).size).toBe(ARTICLES);
  });
});

describe.each([
  ['PostgreSQL', 'postgres'],
  ['SQLite', 'sqlite'],
] as const)('the publishing migration on %s', (_, kind) => {
  let database: SqlDatabaseConfig;
  let cleanUp: () => Promise<void> | void;

  beforeAll(async () => {
    ({ database, remove: cleanUp } = await createSqlDatabase(kind));
    await databaseBefore(database, kind);
    await migrate(database);
  });
  afterAll(() => cleanUp());

  it('gives existing articles published_at (created_at where visible) and slugs by the rule, in id order', async () => {
    const checked = await readBack(database, kind);
    expect(checked.slugs).toEqual(EXPECTED);
    expect(checked.wrongPublishedAt).toEqual([]);
    expect(checked.featured).toEqual([]);
  });

  it('builds the unique slug index, the published_at index and article_slugs', async () => {
    const dataSource = await openDataSource(database);
    try {
      if (kind === 'postgres') {
        const [schema] = await dataSource.query(`
          SELECT (SELECT attnotnull FROM pg_attribute WHERE attrelid = 'articles'::regclass AND attname = 'slug') AS "slugNotNull",
                 (SELECT indisunique AND indisvalid FROM pg_index WHERE indexrelid = 'articles_slug_key'::regclass) AS "slugKey",
                 pg_get_indexdef('articles_slug_key'::regclass) AS "slugKeyDefinition",
                 (SELECT indisvalid FROM pg_index WHERE indexrelid = 'articles_published_at_idx'::regclass) AS "publishedAtIndex",
                 pg_get_indexdef('articles_published_at_idx'::regclass) AS "publishedAtDefinition",
                 (SELECT count(*)::int FROM pg_constraint WHERE conname = 'articles_slug_not_null') AS "leftoverChecks",
                 (SELECT collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation
                   WHERE attrelid = 'articles'::regclass AND attname = 'slug') AS collation,
                 to_regclass('article_slugs_article_id_idx') IS NOT NULL AS "articleSlugsIndex",
                 (SELECT confdeltype FROM pg_constraint WHERE conrelid = 'article_slugs'::regclass AND contype = 'f') AS "onDelete"`);
        expect(schema).toEqual({
          slugNotNull: true,
          slugKey: true,
          slugKeyDefinition: 'CREATE UNIQUE INDEX articles_slug_key ON public.articles USING btree (slug)',
          publishedAtIndex: true,
          publishedAtDefinition:
            'CREATE INDEX articles_published_at_idx ON public.articles USING btree (published_at, id)',
          leftoverChecks: 0,
          collation: 'C',
          articleSlugsIndex: true,
          onDelete: 'c',
        });
        await expect(
          dataSource.query(
            `INSERT INTO articles (title, description, content, visible, created_at, updated_at, slug,
                                   search_description, search_content)
             VALUES ('x', 'd', 'c', false, now(), now(), 'hello-world', 'd', 'c')`,
          ),
        ).rejects.toMatchObject({ code: '23505', constraint: 'articles_slug_key' });
      } else {
        const indexes = await dataSource.query(
          "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'article%' ORDER BY name",
        );
        expect(indexes).toEqual(
          expect.arrayContaining([
            { name: 'article_slugs_article_id_idx', sql: expect.stringContaining('(article_id)') },
            { name: 'articles_published_at_idx', sql: expect.stringContaining('(published_at, id)') },
            {
              name: 'articles_slug_key',
              sql: expect.stringMatching(/^CREATE UNIQUE INDEX articles_slug_key ON articles \(slug\)$/),
            },
          ]),
        );
        await expect(dataSource.query("UPDATE articles SET slug = 'hello-world' WHERE id = 2")).rejects.toMatchObject({
          code: 'SQLITE_CONSTRAINT_UNIQUE',
        });
      }
      const recorded = await dataSource.query("SELECT name FROM schema_migrations WHERE name LIKE 'Publishing%'");
      expect(recorded).toHaveLength(1);
    } finally {
      await dataSource.destroy();
    }
  });

  it('is undone by its down, and done again by the next start', async () => {
    const options = dataSourceOptions(database);
    const dataSource = new DataSource(options);
    await dataSource.initialize();
    try {
      // The migrations after it first, newest first, then it.
      const undone = async () =>
        (await dataSource.query("SELECT name FROM schema_migrations WHERE name LIKE 'Publishing%'")).length === 0;
      while (!(await undone()))
        await dataSource.undoLastMigration({ transaction: kind === 'postgres' ? 'all' : 'each' });
      const columns =
        kind === 'postgres'
          ? await dataSource.query(
              `SELECT attname FROM pg_attribute WHERE attrelid = 'articles'::regclass AND NOT attisdropped
                  AND attname IN ('published_at', 'featured', 'slug')`,
            )
          : await dataSource.query(
              "SELECT name FROM pragma_table_info('articles') WHERE name IN ('published_at', 'featured', 'slug')",
            );
      expect(columns).toEqual([]);
      const table = await dataSource.query(
        kind === 'postgres'
          ? "SELECT to_regclass('article_slugs') AS name"
          : "SELECT name FROM sqlite_master WHERE name = 'article_slugs'",
      );
      expect(kind === 'postgres' ? table[0].name : table).toEqual(kind === 'postgres' ? null : []);
    } finally {
      await dataSource.destroy();
    }
    await migrate(database);
    expect((await readBack(database, kind)).slugs).toEqual(EXPECTED);
  });
});

describe('the publishing migration on PostgreSQL, beside the previous release', () => {
  let url: string;
  let drop: () => Promise<void>;
  let client: Client;

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    const database = { kind: 'postgres', url } as SqlDatabaseConfig;
    await databaseBefore(database, 'postgres');
    await migrate(database);
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await drop();
  });

  // The previous release's statements (its article-statements.ts), which know nothing of
  // published_at and slug: a create, and an update of visible and title.
  const insertArticle = (title: string, visible: boolean, at: string) =>
    client.query(
      `INSERT INTO articles (title, description, content, visible, created_at, updated_at, version,
                             search_title, search_description, search_content)
       VALUES ($1, $2, $3, $4, $5, $5, 1, $6, $7, $8) RETURNING id`,
      [title, 'd', 'c', visible, at, title.toLowerCase(), 'd', 'c'],
    );
  const updateArticle = (id: number, fields: { title?: string; visible?: boolean }, at: string) =>
    client.query(
      `UPDATE articles SET
         title = CASE WHEN $2 THEN $3 ELSE title END,
         visible = COALESCE($4, visible),
         updated_at = GREATEST($5, updated_at),
         version = version + 1,
         search_title = CASE WHEN $2 THEN $6 ELSE search_title END
       WHERE id = $1`,
      [id, fields.title !== undefined, fields.title ?? null, fields.visible ?? null, at, fields.title?.toLowerCase()],
    );
  const article = async (id: number) =>
    (
      await client.query(
        `SELECT slug, published_at::text AS "publishedAt", created_at::text AS "createdAt",
                updated_at::text AS "updatedAt", visible FROM articles WHERE id = $1`,
        [id],
      )
    ).rows[0];

  it('gives an article created the old way published_at and a slug of its id, suffixed when taken', async () => {
    const { rows } = await insertArticle('Made by the previous release', true, '2026-02-01T10:00:00Z');
    const id = rows[0].id as number;
    expect(id).toBe(ARTICLES + 1);
    const created = await article(id);
    // `article-<id>` is the backfilled slug of the article titled "Article <id>".
    expect(created).toMatchObject({ slug: `article-${id}-2`, visible: true });
    expect(created.publishedAt).toBe(created.createdAt);

    const draft = await insertArticle('A draft of the previous release', false, '2026-02-01T10:00:01Z');
    expect(await article(draft.rows[0].id)).toMatchObject({ slug: `article-${id + 1}`, publishedAt: null });
  });

  it('publishes at updated_at and unpublishes when an old update changes visible, and leaves it otherwise', async () => {
    const [shown, hidden] = [1, 2];
    expect((await article(shown)).visible).toBe(true);
    expect((await article(hidden)).visible).toBe(false);

    await updateArticle(shown, { visible: false }, '2026-03-01T00:00:00Z');
    expect(await article(shown)).toMatchObject({ visible: false, publishedAt: null, slug: 'hello-world' });

    await updateArticle(hidden, { visible: true }, '2026-03-01T00:00:01Z');
    const published = await article(hidden);
    expect(published).toMatchObject({ visible: true, slug: 'hello-world-2' });
    expect(published.publishedAt).toBe(published.updatedAt);

    await updateArticle(hidden, { title: 'Renamed', visible: true }, '2026-03-01T00:00:02Z');
    expect(await article(hidden)).toMatchObject({ publishedAt: published.publishedAt, slug: 'hello-world-2' });
  });
});

describe('the publishing migration on PostgreSQL, interrupted', () => {
  let url: string;
  let drop: () => Promise<void>;
  const database = () => ({ kind: 'postgres', url }) as SqlDatabaseConfig;

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    await databaseBefore(database(), 'postgres');
  });
  afterAll(() => drop());

  /** Backends of this database waiting for the slug lock. */
  const slugLockWaiters = async (observer: Client) =>
    Number(
      (
        await observer.query(
          `SELECT count(*) AS waiting FROM pg_locks
            WHERE locktype = 'advisory' AND objid = $1 AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [SLUG_LOCK_KEY],
        )
      ).rows[0].waiting,
    );
  const until = async (condition: () => Promise<boolean>) => {
    for (const deadline = Date.now() + 20_000; !(await condition()); ) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('after its first backfill batch and with an invalid index left behind, completes when run again', async () => {
    const [holder, next, observer] = [url, url, url].map((connectionString) => new Client({ connectionString })) as [
      Client,
      Client,
      Client,
    ];
    for (const client of [holder, next, observer]) await client.connect();
    try {
      // The first batch waits for the slug lock; a second session queues behind it, so that the
      // lock goes to the first batch, then to that session, and the second batch waits.
      // Without parameters, so that the holder's open transaction keeps no snapshot: CREATE INDEX
      // CONCURRENTLY, before the backfill, waits for transactions that hold one.
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(${SLUG_LOCK_KEY})`);
      const migrating = migrate(database());
      migrating.catch(() => {});
      await until(async () => (await slugLockWaiters(observer)) === 1);
      const nextHolds = next.query('SELECT pg_advisory_lock($1)', [SLUG_LOCK_KEY]);
      await until(async () => (await slugLockWaiters(observer)) === 2);
      await holder.query('COMMIT');
      await nextHolds;
      await until(async () => (await slugLockWaiters(observer)) === 1);
      const done = await observer.query('SELECT count(slug)::int AS done FROM articles');
      expect(done.rows[0].done).toBe(PUBLISHING_BATCH);

      // Killed: every session of the migrating process ends.
      await observer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), $1, $2)`,
        [(next as unknown as { processID: number }).processID, (holder as unknown as { processID: number }).processID],
      );
      await expect(migrating).rejects.toThrow();
      // As if an index build had been interrupted too.
      await observer.query("UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'articles_slug_key'::regclass");
      await next.query('SELECT pg_advisory_unlock($1)', [SLUG_LOCK_KEY]);
      const recorded = await observer.query("SELECT name FROM schema_migrations WHERE name LIKE 'Publishing%'");
      expect(recorded.rows).toEqual([]);
    } finally {
      for (const client of [holder, next, observer]) await client.end();
    }

    await migrate(database());
    const checked = await readBack(database(), 'postgres');
    expect(checked.slugs).toEqual(EXPECTED);
    expect(checked.wrongPublishedAt).toEqual([]);
    const dataSource = await openDataSource(database());
    try {
      const [index] = await dataSource.query(
        "SELECT indisvalid AS valid, indisunique AS unique FROM pg_index WHERE indexrelid = 'articles_slug_key'::regclass",
      );
      expect(index).toEqual({ valid: true, unique: true });
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('the publishing migration on PostgreSQL, beside a transaction that holds an old snapshot', () => {
  // 11 s: past the statement timeout (2 s) that an index build runs under, and past the
  // idle-in-transaction timeout (10 s) of the lock transaction, which waits meanwhile.
  it('builds its indexes once the snapshot is gone, past both time limits of the service', async () => {
    const { url, drop } = await createPostgresDatabase();
    const reader = new Client({ connectionString: url });
    try {
      const database = { kind: 'postgres', url } as SqlDatabaseConfig;
      await databaseBefore(database, 'postgres');
      await reader.connect();
      // A long read, as a whole list is: CREATE INDEX CONCURRENTLY waits for it to end.
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await reader.query('SELECT count(*) FROM articles');
      const migrating = migrate(database);
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      await reader.query('COMMIT');
      await migrating;
      const checked = await readBack(database, 'postgres');
      expect(checked.slugs).toEqual(EXPECTED);
    } finally {
      await reader.end();
      await drop();
    }
  });
});

describe('the publishing migration on PostgreSQL, with no connection to spare (PG_POOL_SIZE=1)', () => {
  it('works inside the lock transaction, with the same result', async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      const database = { kind: 'postgres', url, poolSize: 1 } as SqlDatabaseConfig;
      await databaseBefore(database, 'postgres');
      await migrate(database);
      expect((await readBack(database, 'postgres')).slugs).toEqual(EXPECTED);
    } finally {
      await drop();
    }
  });
});

describe('the publishing migration on PostgreSQL, with an earlier migration pending in the same run', () => {
  it('works inside the lock transaction, with the same result', async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      const database = { kind: 'postgres', url } as SqlDatabaseConfig;
      await databaseBefore(database, 'postgres', 'ArticleSearch');
      await migrate(database);
      const checked = await readBack(database, 'postgres');
      expect(checked.slugs).toEqual(EXPECTED);
      expect(checked.wrongPublishedAt).toEqual([]);
    } finally {
      await drop();
    }
  });
});
