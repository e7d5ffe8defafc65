import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KEY_REFRESH_APPLICATION_NAME } from '../../src/infrastructure/persistence/typeorm/key-repository/key-changes-on-own-session';
import { HandshakeHoldingProxy } from '../support/handshake-holding-proxy';
import { createPostgresFixture, type PostgresFixture } from '../support/postgres-fixture';
import { PostgresSessions } from '../support/postgres-sessions';
import { type Exchange, jsonOf, RawHttpClient } from '../support/raw-http';
import { type RunningService, startService, stopService } from '../support/service-process';

const IDLE_LOST = 'idle PostgreSQL connection lost; the pool replaces it';

/** The key refresh polls on a session of its own; the test waits until it is open. */
async function waitForKeyRefreshSession(sessions: PostgresSessions): Promise<number[]> {
  for (let wait = 0; wait < 400; wait++) {
    const pids = await sessions.pidsOf(KEY_REFRESH_APPLICATION_NAME);
    if (pids.length > 0) return pids;
    await sleep(25);
  }
  throw new Error(`no session named ${KEY_REFRESH_APPLICATION_NAME}`);
}

/**
 * Until the service's pool holds no connection: ends every idle session (the key refresh's is
 * spared: ended, its next poll would open a connection of its own) and waits until the service
 * has reported each one lost. A session busy with a statement is ended on a later round, once
 * idle; it ends in its statement's error, and the pool drops it without a report.
 */
async function emptyThePool(service: RunningService, sessions: PostgresSessions): Promise<void> {
  const refresh = await waitForKeyRefreshSession(sessions);
  const reported = () => service.logLines.filter((line) => line.msg === IDLE_LOST).length;
  for (let round = 0; round < 40; round++) {
    const before = reported();
    const ended = await sessions.terminateIdle(refresh);
    for (let wait = 0; wait < 80 && reported() < before + ended; wait++) await sleep(25);
    if (reported() === before + ended && (await sessions.countOthers(refresh)) === 0) return;
  }
  throw new Error('the pool kept a PostgreSQL session through 40 rounds');
}

const isRefused = (answer: Exchange) => answer.kind !== 'answered' || answer.status >= 300;

const UNAVAILABLE = { statusCode: 10001, data: null, message: 'storage is unavailable, try again later' };

/**
 * A session the server ends in the same network read that completes its handshake: the pool
 * hands the new client over synchronously and stops listening for its errors, the query
 * runner listens a microtask later, and the FATAL in between was an 'error' nobody heard (the
 * process died; found by the terminate-all test, by luck). A proxy holds the handshake's last
 * message until the session has been ended, then delivers both at once: every time.
 */
describe('a PostgreSQL session ended in the read that completes its handshake', () => {
  let database: PostgresFixture;
  let sessions: PostgresSessions;
  let proxy: HandshakeHoldingProxy;
  let service: RunningService;
  let workDir: string;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-handshake-'));
    database = await createPostgresFixture();
    sessions = database.closeAtTeardown(await PostgresSessions.open(database.url), (opened) => opened.close());
    const direct = new URL(database.url);
    proxy = database.closeAtTeardown(
      await HandshakeHoldingProxy.start({ host: direct.hostname, port: Number(direct.port) }),
      (opened) => opened.close(),
    );
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    service = database.closeAtTeardown(await startService({ DATABASE_URL: proxied.toString() }, workDir), stopService);
  }, 60_000);
  afterAll(async () => {
    await database?.teardown();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it.each([
    ['a read', UNAVAILABLE, (http: RawHttpClient) => http.get('/article/1')],
    [
      'a write',
      UNAVAILABLE,
      (http: RawHttpClient) => http.postJson('/article/create', { content: 'c', tag: [{ name: 't' }] }),
    ],
    ['the readiness probe', { statusCode: 10001, data: null }, (http: RawHttpClient) => http.get('/ready')],
  ])(
    '%s that meets it is answered 503, the process lives, and the next request is served',
    async (_name, body, send) => {
      const http = new RawHttpClient(service.baseUrl, { maxSockets: 1, deadlineMs: 20_000 });
      try {
        let heldFor = 0;
        let answer: Exchange | undefined;
        // The webhook timers poll through the pool every 400 and 500 ms: one that opens a
        // connection between the arming and the request takes the held handshake, and the
        // request a healthy connection (a 2xx). The process must live through that too; then
        // the request tries again.
        for (let attempt = 0; attempt < 5 && !(answer && isRefused(answer)); attempt++) {
          await emptyThePool(service, sessions);
          heldFor = 0;
          proxy.arm(async (backendPid) => {
            heldFor = backendPid;
            await sessions.terminate(backendPid);
          });
          answer = await send(http);
          proxy.disarm();
          await sleep(100); // an unheard 'error' ends the process just after
          expect(service.process.exitCode === null ? 'alive' : `exited:\n${service.stderr()}`).toBe('alive');
        }
        expect(heldFor).toBeGreaterThan(0);
        expect(answer?.kind === 'answered' && answer.status).toBe(503);
        expect(answer && jsonOf(answer)).toMatchObject(body);

        const next = await http.get('/article');
        expect(next.kind === 'answered' && next.status).toBe(200);
      } finally {
        proxy.disarm();
        http.close();
      }
    },
  );
});
