import { Client } from 'pg';
import { articleStatements } from '../src/infrastructure/persistence/typeorm/article-statements';
import {
  POSTGRES_DIALECT,
  SQLITE_DIALECT,
  type SqlDialect,
} from '../src/infrastructure/persistence/typeorm/sql-dialect';
import { type SqlStatement } from '../src/infrastructure/persistence/typeorm/sql-statement';
import { openSqliteDatabase } from '../src/infrastructure/persistence/typeorm/sqlite-driver';
import {
  filterShapeOf,
  filterValues,
  PROBE_IDS,
} from '../src/infrastructure/persistence/typeorm/visible-articles-filter';
import { type BenchDatabase, openPostgres, openSqlite } from './databases';
import { SEARCH_WORDS, tagName } from './dataset';
import { seedAtSize } from './seed-at-size';

/**
 * `npm run bench -- explain [--articles N]`: seeds a fresh PostgreSQL and SQLite database (100,000
 * articles by default) and prints the plans of the repository's own statements for a page of
 * 20, a tag-filtered page of 20, search pages of 20 for a rare and a common word (and for
 * their first two letters, which no trigram serves), the links of a page, and a get by id: PostgreSQL's
 * EXPLAIN (ANALYZE, BUFFERS) and SQLite's EXPLAIN QUERY PLAN, each with the values it was
 * given. A page starts in the middle of the ids, so an index that is not used shows.
 */
export async function explainPlans(count: number): Promise<void> {
  const after = Math.floor(count / 2);
  const pageIds = JSON.stringify(Array.from({ length: 20 }, (_, index) => after + 1 + index));
  const plain = { order: 'id', tag: false, category: false, author: false, featured: false, search: 'none' } as const;
  const moment = new Date();
  const cases = (d: SqlDialect): [string, SqlStatement, unknown[]][] => {
    const sql = articleStatements(d);
    const now = d.encodeTimestamp(moment);
    const searchPage = (q: string): [string, SqlStatement, unknown[]] => {
      const filter = { moment, afterId: after, foldedQuery: q };
      return [
        `search page of 20 for "${q}" (pageOfVisible, ${filterShapeOf(filter).search})`,
        sql.pageOfVisible(filterShapeOf(filter)),
        [20, now, ...filterValues(d, filter)],
      ];
    };
    const probePage = (q: string): [string, SqlStatement, unknown[]] => {
      const filter = { moment, afterId: after, foldedQuery: q };
      const shape = { ...filterShapeOf(filter), search: 'probe' } as const;
      return [
        `search page of 20 for "${q}", the probe of the next ${PROBE_IDS} ids that comes first`,
        sql.pageOfVisible(shape),
        [20, now, ...filterValues(d, filter, shape, after + PROBE_IDS)],
      ];
    };
    return [
      ['page of 20 (pageOfVisible)', sql.pageOfVisible(plain), [20, now, after]],
      [
        'first page of 20, newest first (pageOfVisible, newest)',
        sql.pageOfVisible({ ...plain, order: 'newest' }),
        [20, now],
      ],
      [
        'tag-filtered page of 20 (pageOfVisible)',
        sql.pageOfVisible({ ...plain, tag: true }),
        [20, now, after, tagName(7)],
      ],
      ['the list version (dataVersion)', sql.dataVersion, [now]],
      searchPage(SEARCH_WORDS.rare),
      searchPage(SEARCH_WORDS.common),
      ...(d.probesBeforeSearchIndex ? [probePage(SEARCH_WORDS.common)] : []),
      searchPage(SEARCH_WORDS.rare.slice(0, 2)),
      searchPage(SEARCH_WORDS.common.slice(0, 2)),
      ["the page's links (linksOfArticles, 20 ids)", sql.linksOfArticles, [pageIds]],
      ['get by id (findArticle)', sql.findArticle, [after]],
    ];
  };

  const postgres = await openPostgres();
  try {
    await seedAtSize(postgres, count);
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      for (const [title, statement, values] of cases(POSTGRES_DIALECT)) {
        const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, values);
        print(
          `PostgreSQL, ${count} articles: ${title}, values ${JSON.stringify(values)}`,
          statement,
          plan.rows.map((row) => row['QUERY PLAN']),
        );
      }
    } finally {
      await client.end();
    }
  } finally {
    await postgres.close();
  }

  const sqlite = await openSqlite();
  try {
    await seedAtSize(sqlite, count);
    const db = openSqliteDatabase(sqliteFile(sqlite), { readonly: true });
    try {
      for (const [title, statement, values] of cases(SQLITE_DIALECT)) {
        const named = Object.fromEntries(values.map((value, index) => [`p${index + 1}`, value]));
        const rows = db.prepare(`EXPLAIN QUERY PLAN ${statement.text}`).all(named) as {
          detail: string;
          id: number;
          parent: number;
        }[];
        const prepared = db.prepare(statement.text);
        prepared.all(named);
        const started = process.hrtime.bigint();
        prepared.all(named);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        print(
          `SQLite, ${count} articles: ${title}, values ${JSON.stringify(values)}, second run ${ms.toFixed(2)} ms`,
          statement,
          indentPlan(rows),
        );
      }
    } finally {
      db.close();
    }
  } finally {
    await sqlite.close();
  }
}

function print(title: string, statement: SqlStatement, plan: string[]): void {
  console.log(`\n#### ${title}\n\n\`${statement.name}\`:\n\n\`\`\`\n${plan.join('\n')}\n\`\`\``);
}

/** SQLite's plan rows as a tree, like its shell prints them. */
function indentPlan(rows: { detail: string; id: number; parent: number }[]): string[] {
  const depth = new Map<number, number>([[0, 0]]);
  return rows.map((row) => {
    const level = (depth.get(row.parent) ?? 0) + 1;
    depth.set(row.id, level);
    return `${'  '.repeat(level - 1)}${row.detail}`;
  });
}

const sqliteFile = (database: BenchDatabase) => database.url.replace(/^sqlite:/, '');
