import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SqlDatabaseConfig } from '../../src/infrastructure/config/config';
import { sql } from './postgres-sql';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * This Jest worker's PostgreSQL server (postgres-global-setup.ts): TEST_DATABASE_URL's, shared by
 * every worker, or the embedded server of this worker (JEST_WORKER_ID counts from 1).
 */
export function testServerUrl(): string {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return given;
  const servers = (process.env.TEST_POSTGRES_SERVER_URLS ?? '').split(' ').filter(Boolean);
  if (servers.length === 0)
    throw new Error('no PostgreSQL test server: run through jest, whose global setup starts one');
  return servers[(Number(process.env.JEST_WORKER_ID ?? '1') - 1) % servers.length] as string;
}

/** A fresh, empty PostgreSQL database on this worker's test server, for one test file. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = `blog_test_${randomBytes(6).toString('hex')}`;
  await sql(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await sql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A fresh SQLite file in its own temporary folder. */
export function createSqliteFile(): { path: string; remove(): void } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-sqlite-'));
  return { path: path.join(folder, 'test.sqlite'), remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/** A fresh database of either kind for one test file (migration tests run on both), and how to remove it. */
export async function createSqlDatabase(
  kind: 'postgres' | 'sqlite',
): Promise<{ database: SqlDatabaseConfig; remove(): Promise<void> | void }> {
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    return { database: { kind: 'postgres', url: created.url } as SqlDatabaseConfig, remove: created.drop };
  }
  const file = createSqliteFile();
  return { database: { kind: 'sqlite', path: file.path }, remove: file.remove };
}
