import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import request from 'supertest';
import { STREAM_CHUNK_SIZE } from '../../src/application';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { SwitchableProxy } from '../support/switchable-proxy';
import { createPostgresDatabase, type TestDatabase } from '../support/test-databases';

/**
 * Chunks of 8 MB, and the database silent halfway through the third: its FETCH is in flight
 * when the bytes stop, the first two are written to the client. The silence falls at a byte of
 * the database's answers, not at a moment: a client paused for a moment let the socket buffers
 * take two chunks or three (the receive buffer may grow to 32 MB here), and once the last FETCH
 * was answered before the silence, so the list ended whole.
 */
const ARTICLES = STREAM_CHUNK_SIZE * 4 + 1;
const CONTENT = 'x'.repeat(40_000);

/**
 * The database goes silent (its host gone: connections open, nothing answers) while the whole
 * list is being written. The answer has begun, so it can only be finished or cut; with nothing
 * answering it must be cut soon after the statement in flight gives up, not held while each
 * retry waits out its own deadline (a list held so 10.2 s in the frozen-database scenario).
 */
describe('PostgreSQL silent in the middle of the whole list', () => {
  let database: TestDatabase;
  let proxy: SwitchableProxy;
  let container: Container;
  let server: http.Server;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const { hostname, port } = new URL(database.url);
    proxy = await SwitchableProxy.start({ host: hostname, port: Number(port) });
    container = await buildContainer(
      loadConfig({ DATABASE_URL: proxy.urlThrough(database.url), LIST_CACHE_SIZE: '0', LOG_LEVEL: 'silent' }),
    );
    const app = createApp(container);
    for (let n = 0; n < ARTICLES; n++)
      await request(app).post('/article/create').send({ content: CONTENT }).expect(201);
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }, 120_000);
  afterAll(async () => {
    proxy?.restore();
    await new Promise((resolve) => server?.close(resolve));
    if (container) await closeContainer(container);
    await proxy?.stop();
    await database?.drop();
  });

  it('cuts the answer within 5 s of the silence rather than holding it through retries', async () => {
    const { port } = server.address() as AddressInfo;
    let silencedAt = 0;
    proxy.silenceAfter(STREAM_CHUNK_SIZE * 2.5 * CONTENT.length, () => {
      silencedAt = performance.now();
    });
    const answer = await new Promise<{ status?: number; bytes: number; complete: boolean; endedAt: number }>(
      (resolve) => {
        let bytes = 0;
        const ended = (status: number | undefined, complete: boolean) =>
          resolve({ status, bytes, complete, endedAt: performance.now() });
        http
          .get({ host: '127.0.0.1', port, path: '/article', agent: false }, (response) => {
            response.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
            });
            response.on('end', () => ended(response.statusCode, response.complete));
            response.on('error', () => ended(response.statusCode, false));
          })
          .on('error', () => ended(undefined, false));
      },
    );

    expect(answer.status).toBe(200);
    // The first two chunks arrived, then the connection was cut: never a shorter list that parses.
    expect(silencedAt).toBeGreaterThan(0);
    expect(answer.complete).toBe(false);
    expect(answer.bytes).toBeGreaterThan(STREAM_CHUNK_SIZE * 2 * CONTENT.length);
    expect(answer.bytes).toBeLessThan(STREAM_CHUNK_SIZE * 3 * CONTENT.length);
    // The FETCH in flight gives up 2 s after the last bytes; held through 6 retries of 2 s, 15 s.
    expect(answer.endedAt - silencedAt).toBeLessThan(5_000);
  }, 60_000);
});
