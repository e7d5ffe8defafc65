import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Container } from 'inversify';
import request from 'supertest';
import { STREAM_CHUNK_SIZE } from '../../src/application';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { SwitchableProxy } from '../support/switchable-proxy';
import { createPostgresDatabase, type TestDatabase } from '../support/test-databases';

/**
 * Chunks of 8 MB: a paused client holds the list within its first two (16 MB, more than the
 * loopback socket buffers take, about 10 MB), so the FETCH of the fourth is sent only after the
 * database went silent. With three chunks, the buffers once took the first whole and the last
 * FETCH was answered before the silence (a full `npm test` run).
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
    const answer = await new Promise<{ status?: number; bytes: number; complete: boolean; endedAt: number }>(
      (resolve) => {
        let bytes = 0;
        const ended = (status: number | undefined, complete: boolean) =>
          resolve({ status, bytes, complete, endedAt: performance.now() });
        http
          .get({ host: '127.0.0.1', port, path: '/article', agent: false }, (response) => {
            response.once('data', async () => {
              // The list is held within its first two chunks; the FETCHes sent ahead meanwhile
              // are answered. Then the database goes silent and the client reads on.
              response.pause();
              await sleep(500);
              proxy.silence();
              silencedAt = performance.now();
              response.resume();
            });
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
    // At least the first two chunks arrived, then the connection was cut: never a shorter list that parses.
    expect(answer.complete).toBe(false);
    expect(answer.bytes).toBeGreaterThan(STREAM_CHUNK_SIZE * 2 * CONTENT.length);
    expect(answer.bytes).toBeLessThan(STREAM_CHUNK_SIZE * 4 * CONTENT.length);
    // The FETCH in flight gives up 2 s after the last bytes; held through 6 retries of 2 s, 15 s.
    expect(answer.endedAt - silencedAt).toBeLessThan(5_000);
  }, 60_000);
});
