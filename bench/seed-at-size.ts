import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import { Client } from 'pg';
import { openSqliteDatabase } from '../src/infrastructure/persistence/typeorm/sqlite-driver';
import { type BenchDatabase, openPostgres, openSqlite } from './databases';
import { categoryName, DATASET, type PreparedDataset, SEARCH_SHARES, SEARCH_WORDS, tagName } from './dataset';
import { DIST } from './paths';

/**
 * Seeds a database with many articles straight into the schema, in batched SQL: one INSERT …
 * SELECT of all articles over a generated series, then one per link table. A request per
 * article would take the better part of an hour at 100,000; this takes seconds.
 *
 * The articles look like the HTTP dataset's (dataset.ts): 30 tags and 10 categories by name,
 * 3 tags and 2 categories per article, 1 in 10 a draft (published_at null, `visible` false), the
 * others published at their creation (published_at = created_at, as a create without
 * `publishedAt` publishes), none featured, each with the slug its title gives (`Article 123`:
 * `article-123`, what the service's slugFromTitle makes, unique). Which ones is a hash of the article
 * id, written once in SQL that both PostgreSQL and SQLite evaluate the same way, so a run is
 * repeatable and an article's tags do not follow its id's residue: tag k is drawn from third k
 * of the pool, category k from half k, so every tag is on about 10 % of the articles and every
 * category on about 20 %, spread over the whole id range. For search, the content of about 60 %
 * holds SEARCH_WORDS.common (also by hash) and of 1 in 1,250 SEARCH_WORDS.rare.
 */
export interface SeededDataset extends PreparedDataset {
  /** Visible articles linked to each tag name. */
  visibleByTag: Record<string, number>;
  seconds: number;
}

const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.';
const CONTENT = `${FILLER} ${FILLER}`;

/**
 * 0..65535 from an article id and a draw number `draw` (0..7, an SQL expression): the high
 * bits of a multiplicative hash (Knuth's) with a multiplier of its own per draw, so that two
 * draws of one article are not a constant apart (as they are with one multiplier).
 */
const mix = (id: string, draw: string) => `(((${id} * (2654435761 + (${draw}) * 2246822518)) % 4294967296) / 65536)`;
/** 'tag-07' for 7: the names of dataset.ts, built in SQL ('0' pads one digit). */
const paddedTag = (n: string) => `('tag-' || CASE WHEN ${n} < 10 THEN '0' ELSE '' END || ${n})`;

/** What differs between the two engines for the seeding SQL. */
interface SeedDialect {
  /** Rows n = 1..count; count is parameter 1. */
  series: string;
  param(n: number): string;
  /** A timestamp n seconds after 2026-01-01 00:00 UTC, as the schema stores it. */
  timestampAfterSeconds(n: string): string;
  visible(condition: string): string;
  /** The boolean false as the schema stores it. */
  no: string;
  /** The current time, comparable with a stored timestamp. */
  now: string;
}

const POSTGRES_SEED: SeedDialect = {
  series: 'generate_series(1, $1::integer) AS g(n)',
  param: (n) => `$${n}`,
  timestampAfterSeconds: (n) => `(timestamptz '2026-01-01 00:00:00Z' + ${n} * interval '1 second')`,
  visible: (condition) => condition,
  no: 'false',
  now: 'now()',
};

const SQLITE_SEED: SeedDialect = {
  // No generate_series in the library's SQLite: a recursive CTE counts as fast.
  series: '(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < @p1) SELECT n FROM s) AS g',
  param: (n) => `@p${n}`,
  timestampAfterSeconds: (n) => `strftime('%Y-%m-%d %H:%M:%f', '2026-01-01 00:00:00', '+' || ${n} || ' seconds')`,
  visible: (condition) => `CASE WHEN ${condition} THEN 1 ELSE 0 END`,
  no: '0',
  // The text format the service writes (its dialect's encodeTimestamp), which compares in time order.
  now: "strftime('%Y-%m-%d %H:%M:%f', 'now')",
};

/**
 * The statements, in order; the articles' parameter 1 is the count, the links' the first new id.
 * `publishing`: the schema has published_at, featured and slug (this tree's); without, the
 * previous release's (migrate-live seeds it, then migrates it).
 */
function seedStatements(d: SeedDialect, publishing: boolean) {
  const visibleCondition = `${mix('g.n', '7')} % ${DATASET.invisibleEvery} <> 0`;
  const content = `${d.param(2)}
    || CASE WHEN ${mix('g.n', '5')} % 10 < ${SEARCH_SHARES.commonTenths} THEN ' Put the ${SEARCH_WORDS.common} on.' ELSE '' END
    || CASE WHEN g.n % ${SEARCH_SHARES.rareEvery} = 7 THEN ' A ${SEARCH_WORDS.rare} smiled.' ELSE '' END`;
  const [publishingColumns, publishingValues] = publishing
    ? [', published_at, featured, slug', `, CASE WHEN visible THEN at END, ${d.no}, 'article-' || n`]
    : ['', ''];
  // The folded copies for search: the text is ASCII, where SQL's lower() is toLowerCase().
  const articles = `INSERT INTO articles (title, description, content, visible, created_at, updated_at,
                                          search_title, search_description, search_content${publishingColumns})
    SELECT title, description, content, visible, at, at, lower(title), lower(description), lower(content)${publishingValues}
      FROM (SELECT g.n, 'Article ' || g.n AS title, 'About article ' || g.n AS description, ${content} AS content,
                   ${d.visible(visibleCondition)} AS visible, ${d.timestampAfterSeconds('g.n')} AS at
              FROM ${d.series}) s
     ORDER BY s.n`;
  const picks = (count: number) =>
    Array.from({ length: count }, (_, k) => (k === 0 ? 'SELECT 0 AS k' : `SELECT ${k}`)).join(' UNION ALL ');
  const tagLinks = `INSERT INTO article_tags (article_id, tag_id)
    SELECT a.id, t.id FROM articles a CROSS JOIN (${picks(DATASET.tagsPerArticle)}) p
      JOIN tags t ON t.name = ${paddedTag(`(p.k * 10 + ${mix('a.id', 'p.k')} % 10)`)}
     WHERE a.id >= ${d.param(1)}`;
  const categoryLinks = `INSERT INTO article_categories (article_id, category_id)
    SELECT a.id, c.id FROM articles a CROSS JOIN (${picks(DATASET.categoriesPerArticle)}) p
      JOIN categories c ON c.name = 'category-' || (p.k * 5 + ${mix('a.id', '3 + p.k')} % 5)
     WHERE a.id >= ${d.param(1)}`;
  return { articles, tagLinks, categoryLinks };
}

/** The terms of the pools, with fresh ids: [id, name, description]. */
function termRows(): { tags: string[][]; categories: string[][] } {
  return {
    tags: Array.from({ length: DATASET.tags }, (_, n) => [createId(), tagName(n), `Tag ${n}`]),
    categories: Array.from({ length: DATASET.categories }, (_, n) => [createId(), categoryName(n), `Category ${n}`]),
  };
}

/** The service's own migrations (`dist/src/migrate.js`), as `npm run migrate` runs them. */
export function migrate(database: BenchDatabase): void {
  execFileSync(process.execPath, [path.join(DIST, 'src', 'migrate.js')], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * Migrates `database` (it must have no articles yet), seeds `count` articles and the term
 * pools, refreshes the planner's statistics, and answers what was written, counted back from
 * the tables.
 */
export async function seedAtSize(database: BenchDatabase, count: number): Promise<SeededDataset> {
  migrate(database);
  const started = process.hrtime.bigint();
  const counted = database.kind === 'postgres' ? await seedPostgres(database.url, count) : seedSqlite(database, count);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { firstId, lastId, articles, visible, tagLinks, categoryLinks, visibleByTag, slugs } = counted;
  // Contiguous ids from one statement on an empty table; the links say every article got its picks.
  if (articles !== count || lastId - firstId + 1 !== count)
    throw new Error(`seeded ${articles} articles, ids ${firstId}..${lastId}, expected ${count}`);
  if (slugs !== count) throw new Error(`seeded ${count} articles, ${slugs} with a slug`);
  if (tagLinks !== count * DATASET.tagsPerArticle || categoryLinks !== count * DATASET.categoriesPerArticle)
    throw new Error(`seeded ${tagLinks} tag and ${categoryLinks} category links for ${count} articles`);
  const ids = Array.from({ length: count }, (_, index) => firstId + index);
  return { ids, lastId, visible, visibleByTag, seconds };
}

interface Counted {
  firstId: number;
  lastId: number;
  articles: number;
  visible: number;
  tagLinks: number;
  categoryLinks: number;
  visibleByTag: Record<string, number>;
  /** Articles with a slug (every article, in the previous release's schema, which has none). */
  slugs: number;
}

/**
 * The counts read back. Visible: what the service lists, published now (`visible` in the previous
 * release's schema); slugs: the articles that have one (the unique index makes them distinct).
 */
function countStatements(d: SeedDialect, publishing: boolean) {
  const listed = publishing ? `a.published_at <= ${d.now}` : 'a.visible';
  return {
    counts: `SELECT (SELECT min(id) FROM articles) AS "firstId", (SELECT max(id) FROM articles) AS "lastId",
      (SELECT count(*) FROM articles) AS articles, (SELECT count(*) FROM articles a WHERE ${listed}) AS visible,
      (SELECT count(*) FROM article_tags) AS "tagLinks", (SELECT count(*) FROM article_categories) AS "categoryLinks",
      ${publishing ? '(SELECT count(slug) FROM articles)' : '(SELECT count(*) FROM articles)'} AS slugs`,
    visibleByTag: `SELECT t.name, count(*) AS visible FROM article_tags l JOIN tags t ON t.id = l.tag_id
      JOIN articles a ON a.id = l.article_id WHERE ${listed} GROUP BY t.name`,
  };
}

type TagCount = { name: string; visible: unknown };

/** The rows of COUNTS and VISIBLE_BY_TAG as numbers (PostgreSQL answers count(*) as text). */
function counted(row: Record<string, unknown>, byTag: TagCount[]): Counted {
  const number = (key: string) => Number(row[key]);
  return {
    firstId: number('firstId'),
    lastId: number('lastId'),
    articles: number('articles'),
    visible: number('visible'),
    tagLinks: number('tagLinks'),
    categoryLinks: number('categoryLinks'),
    slugs: number('slugs'),
    visibleByTag: Object.fromEntries(byTag.map((tag) => [tag.name, Number(tag.visible)])),
  };
}

/** The PostgreSQL half of seedAtSize, on a schema already migrated (migrate-live: the previous release's). */
export async function seedPostgres(url: string, count: number): Promise<Counted> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const publishing = (
      await client.query(
        `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                         WHERE table_schema = current_schema() AND table_name = 'articles'
                           AND column_name = 'published_at') AS publishing`,
      )
    ).rows[0].publishing as boolean;
    const statements = seedStatements(POSTGRES_SEED, publishing);
    const { tags, categories } = termRows();
    await client.query('BEGIN');
    for (const [table, rows] of [
      ['tags', tags],
      ['categories', categories],
    ] as const) {
      await client.query(
        `INSERT INTO ${table} (id, name, description) SELECT value ->> 0, value ->> 1, value ->> 2
           FROM json_array_elements($1::json) AS value`,
        [JSON.stringify(rows)],
      );
    }
    await client.query(statements.articles, [count, CONTENT]);
    await client.query(statements.tagLinks, [1]);
    await client.query(statements.categoryLinks, [1]);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE articles, article_tags, article_categories, tags, categories');
    const counts = countStatements(POSTGRES_SEED, publishing);
    const row = (await client.query(counts.counts)).rows[0];
    const byTag = (await client.query(counts.visibleByTag)).rows;
    return counted(row, byTag);
  } finally {
    await client.end();
  }
}

function seedSqlite(database: BenchDatabase, count: number): Counted {
  const db = openSqliteDatabase(database.url.replace(/^sqlite:/, ''));
  try {
    db.pragma('journal_mode = WAL');
    // SQLite is always seeded in this tree's schema.
    const statements = seedStatements(SQLITE_SEED, true);
    const { tags, categories } = termRows();
    db.transaction(() => {
      for (const [table, rows] of [
        ['tags', tags],
        ['categories', categories],
      ] as const) {
        const insert = db.prepare(`INSERT INTO ${table} (id, name, description) VALUES (?, ?, ?)`);
        for (const term of rows) insert.run(...term);
      }
      db.prepare(statements.articles).run({ p1: count, p2: CONTENT });
      db.prepare(statements.tagLinks).run({ p1: 1 });
      db.prepare(statements.categoryLinks).run({ p1: 1 });
    })();
    // The full-text index as maintenance leaves it: its segments merged into one (the trigger
    // inserts leave hundreds; a rare word's page then reads 2.3 ms of them instead of 0.7 ms).
    db.exec("INSERT INTO article_search (article_search) VALUES ('optimize')");
    db.exec('ANALYZE');
    const counts = countStatements(SQLITE_SEED, true);
    return counted(
      db.prepare(counts.counts).get() as Record<string, unknown>,
      db.prepare(counts.visibleByTag).all() as TagCount[],
    );
  } finally {
    db.close();
  }
}

/**
 * `npm run bench -- seed [--articles N] [--kinds postgres,sqlite]`: seeds a fresh database of
 * each kind, prints the time and the counts, and drops it.
 */
export async function timeSeeding(count: number, kinds: readonly ('postgres' | 'sqlite')[]): Promise<void> {
  for (const kind of kinds) {
    const database = kind === 'postgres' ? await openPostgres() : await openSqlite();
    try {
      const seeded = await seedAtSize(database, count);
      const tags = Object.values(seeded.visibleByTag);
      console.log(
        `${database.description}: ${count} articles (${seeded.visible} visible, ids ..${seeded.lastId}) ` +
          `in ${seeded.seconds.toFixed(1)} s; visible per tag ${Math.min(...tags)}..${Math.max(...tags)}`,
      );
    } finally {
      await database.close();
    }
  }
}
