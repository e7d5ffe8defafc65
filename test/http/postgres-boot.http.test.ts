import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { MIGRATION_LOCK_KEY } from '../../src/infrastructure/persistence/typeorm/data-source';
import { startPgBouncer } from '../support/pgbouncer';
import { PostgresTestServer } from '../support/postgres-server';
import { PostgresSessions } from '../support/postgres-sessions';
import { jsonOf, RawHttpClient } from '../support/raw-http';
import { type RunningService, runScriptToExit, startService } from '../support/service-process';
import { createPostgresDatabase, type TestDatabase, testServerUrl } from '../support/test-databases';

const UNAVAILABLE = { statusCode: 10001, data: null, message: 'storage is unavailable, try again later' };

/**
 * The service starts whatever its database is doing: not started yet, or refusing new
 * connections. It listens at once (/health 200), answers storage routes and /ready with the
 * 503 wrapper, connects and migrates with back-off, and serves once the database lets it in,
 * without a restart. Several instances starting together on an empty database migrate it once.
 */
describe('starting before PostgreSQL is there', () => {
  let server: PostgresTestServer;
  let workDir: string;
  beforeAll(async () => {
    server = await PostgresTestServer.create({ started: false });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-boot-'));
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it.each([
    ['one server process', {}],
    ['WORKERS=2', { WORKERS: '2' }],
  ])('%s: listens, answers 503 until the server starts, then migrates and serves', async (_name, env) => {
    await server.stop();
    const service = await startService({ DATABASE_URL: server.url, ...env }, workDir);
    try {
      await expectUnavailable(service);
      await server.start();
      await expectServing(service);
      expect(service.logLines.filter((line) => line.msg === 'a worker exited unexpectedly')).toEqual([]);
    } finally {
      await stop(service);
    }
  });
});

describe('npm run migrate before PostgreSQL is there', () => {
  let server: PostgresTestServer;
  let workDir: string;
  beforeAll(async () => {
    server = await PostgresTestServer.create({ started: false });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-migrate-'));
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('waits with back-off, migrates once the server starts, and exits 0', async () => {
    let reportFailure: () => void = () => {};
    const failedOnce = new Promise<void>((resolve) => {
      reportFailure = resolve;
    });
    const migrating = runScriptToExit('migrate.js', { DATABASE_URL: server.url }, workDir, (stderr) => {
      if (stderr.includes('not reachable yet')) reportFailure();
    });
    // The server starts only once the command has reported a failed attempt (or has exited).
    void migrating.then(() => reportFailure());
    await failedOnce;
    await server.start();
    const result = await migrating;
    expect(result.stderr).toMatch(/not reachable yet \(.*\); retrying in \d+ ms/);
    expect(result.stdout).toMatch(/is at the current schema \(\d+ migrations applied\)/);
    expect(result.code).toBe(0);
  });
});

describe('PostgreSQL refusing new connections (the role has reached its connection limit)', () => {
  let database: TestDatabase;
  /** On the server's own database, for the role; `sessions` on the test database, to end its sessions. */
  let admin: PostgresSessions;
  let sessions: PostgresSessions;
  let workDir: string;
  const role = `blog_limited_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let roleUrl: string;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    sessions = await PostgresSessions.open(database.url);
    admin = await PostgresSessions.open(testServerUrl());
    // A role of its own: the test server's superuser is exempt from connection limits.
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}' CONNECTION LIMIT 0`);
    await admin.query(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} OWNER TO ${role}`);
    const url = new URL(database.url);
    url.username = role;
    url.password = password;
    roleUrl = url.toString();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-refused-'));
  }, 60_000);
  afterAll(async () => {
    await sessions?.close();
    await database?.drop();
    await admin?.query(`DROP ROLE IF EXISTS ${role}`);
    await admin?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('starts while refused, serves once let in, answers 503 when refused again, and serves again', async () => {
    const service = await startService({ DATABASE_URL: roleUrl }, workDir);
    try {
      await expectUnavailable(service);
      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
      await expectServing(service);

      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
      // Pooled sessions are ended too, so that every request needs a new connection.
      await sessions.terminateAll();
      await expectUnavailable(service);
      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
      await expectServing(service);
    } finally {
      await stop(service);
    }
  });
});

describe('four instances starting at once on an empty database', () => {
  let database: TestDatabase;
  let workDir: string;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-four-'));
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('migrate it once between them, and all four come up and serve', async () => {
    const started = await Promise.allSettled(
      Array.from({ length: 4 }, () => startService({ DATABASE_URL: database.url }, workDir)),
    );
    const services = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    try {
      expect(started.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      for (const service of services) await expectServing(service);
      const sessions = await PostgresSessions.open(database.url);
      const applied = await sessions.query<{ name: string; times: string }>(
        'SELECT name, count(*) AS times FROM schema_migrations GROUP BY name',
      );
      await sessions.close();
      expect(applied.length).toBeGreaterThan(0);
      expect(applied.filter((row) => Number(row.times) !== 1)).toEqual([]);
    } finally {
      await Promise.all(services.map(stop));
    }
  });
});

/**
 * Through PgBouncer in transaction mode (the topology's config, which hands out server
 * connections in turn), a session's statements land on different server connections. The
 * migration lock used to be a session lock: taken on one server connection, released on
 * another (a no-op), so it stayed held by PgBouncer's pooled connection for good, and the next
 * service started straight on the database (the topology's own checks, an operator's
 * `npm run migrate`) waited for it forever. A rolling deploy of the topology showed it.
 */
describe('instances starting through PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let workDir: string;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-pgbouncer-boot-'));
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('leave no migration lock behind: a service started straight on the database comes up', async () => {
    const pgbouncer = await startPgBouncer(database.url);
    const through = { DATABASE_URL: pgbouncer.url, PG_PREPARED_STATEMENTS: 'false' };
    const services: RunningService[] = [];
    // Other clients' traffic through PgBouncer, as the instances already serving send it: it
    // takes and gives back server connections between a starting instance's statements.
    const traffic = new Pool({ connectionString: pgbouncer.url, max: 4 });
    let stopped = false;
    const clients = Array.from({ length: 4 }, async () => {
      while (!stopped) await traffic.query('SELECT pg_sleep(0.002)');
    });
    try {
      // One after another, as a rolling deploy starts them; each migrates (nothing pending).
      for (let instance = 0; instance < 3; instance++) {
        const service = await startService(through, workDir);
        services.push(service);
        await expectServing(service);
      }
      const sessions = await PostgresSessions.open(database.url);
      const held = await sessions.query<{ pid: number }>(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1",
        [MIGRATION_LOCK_KEY],
      );
      await sessions.close();
      expect(held).toEqual([]);
      const direct = await startService({ DATABASE_URL: database.url }, workDir);
      services.push(direct);
      await expectServing(direct);
    } finally {
      stopped = true;
      await Promise.all(clients);
      await traffic.end();
      await Promise.all(services.map(stop));
      await pgbouncer.stop();
    }
  });
});

/** /health 200; /ready, a read and a write: the 503 wrapper. */
async function expectUnavailable(service: RunningService): Promise<void> {
  const http = new RawHttpClient(service.baseUrl, { maxSockets: 1, deadlineMs: 20_000 });
  try {
    const health = await http.get('/health');
    expect(health.kind === 'answered' && health.status).toBe(200);
    for (const answer of [
      await http.get('/ready'),
      await http.get('/article'),
      await http.get('/article/1'),
      await http.postJson('/article/create', { content: 'while unavailable', tag: [{ name: 'x' }] }),
    ]) {
      expect(answer.kind === 'answered' && answer.status).toBe(503);
    }
    const write = await http.postJson('/article/create', { content: 'while unavailable' });
    expect(jsonOf(write)).toEqual(UNAVAILABLE);
    expect(service.process.exitCode).toBeNull();
  } finally {
    http.close();
  }
}

/** /ready turns 200 (polled, bounded in count, not timed), then a write and its read succeed. */
async function expectServing(service: RunningService): Promise<void> {
  const http = new RawHttpClient(service.baseUrl, { maxSockets: 1, deadlineMs: 20_000 });
  try {
    let ready = false;
    for (let attempt = 0; attempt < 400 && !ready; attempt++) {
      const answer = await http.get('/ready');
      ready = answer.kind === 'answered' && answer.status === 200;
      if (!ready) await sleep(50);
    }
    expect(ready).toBe(true);
    const created = await http.postJson('/article/create', { content: 'served', tag: [{ name: 'served' }] });
    expect(created.kind === 'answered' && created.status).toBe(201);
    const id = (jsonOf(created) as { data: { id: number } }).data.id;
    const read = await http.get(`/article/${id}`);
    expect((jsonOf(read) as { data: { content: string } }).data.content).toBe('served');
    expect(service.process.exitCode).toBeNull();
  } finally {
    http.close();
  }
}

async function stop(service: RunningService): Promise<void> {
  if (service.process.exitCode !== null || service.process.signalCode !== null) return;
  service.process.kill('SIGTERM');
  await service.exited;
}
