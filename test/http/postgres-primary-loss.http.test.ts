import { setTimeout as sleep } from 'node:timers/promises';
import type { Express } from 'express';
import type { Container } from 'inversify';
import request from 'supertest';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { PostgresTestServer } from '../support/postgres-server';
import { sql } from '../support/postgres-sql';
import { SwitchableProxy } from '../support/switchable-proxy';
import { createPostgresDatabase, type TestDatabase } from '../support/test-databases';

const UNAVAILABLE = { statusCode: 10001, data: null, message: 'storage is unavailable, try again later' };

const targetOf = (url: string) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) });

/** Polls (bounded in count, not timed) until `/ready/write` answers 200. */
async function untilWritesReady(app: Express): Promise<void> {
  for (let poll = 0; poll < 100; poll++) {
    if ((await request(app).get('/ready/write')).status === 200) return;
    await sleep(100);
  }
  throw new Error('/ready/write never answered 200');
}

/**
 * The primary's address goes silent (its host is gone: connections open, nothing answers) while
 * a replica still answers; the primary and the replica are the same real database reached
 * through two proxies, so the test sees what reached the primary.
 */
describe('PostgreSQL primary gone, replica answering', () => {
  let database: TestDatabase;
  let primary: SwitchableProxy;
  let replica: SwitchableProxy;
  let container: Container;
  let app: Express;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    primary = await SwitchableProxy.start(targetOf(database.url));
    replica = await SwitchableProxy.start(targetOf(database.url));
    container = await buildContainer(
      loadConfig({
        DATABASE_URL: primary.urlThrough(database.url),
        DATABASE_READ_URLS: replica.urlThrough(database.url),
        LOG_LEVEL: 'silent',
      }),
    );
    app = createApp(container);
  });
  afterAll(async () => {
    primary.restore();
    await closeContainer(container);
    await primary.stop();
    await replica.stop();
    await database.drop();
  });

  it('serves reads, says writes are unavailable, fails writes at once with Retry-After, and writes again once the primary is back', async () => {
    const created = await request(app)
      .post('/article/create')
      .send({ content: 'before the loss', tag: [{ name: 'ha' }], category: [{ name: 'failover' }] })
      .expect(201);
    const article = created.body.data;

    primary.silence();

    // Reads: every read route answers 2xx from the replica.
    expect((await request(app).get('/article').expect(200)).body.data).toEqual([article]);
    expect((await request(app).get('/article?limit=5&tag=ha').expect(200)).body.data).toEqual([article]);
    expect((await request(app).get(`/article/${article.id}`).expect(200)).body.data).toEqual(article);
    expect((await request(app).get('/tag').expect(200)).body.data).toEqual(article.tag);
    expect((await request(app).get('/category').expect(200)).body.data).toEqual(article.category);

    // Not on the replica, and the primary cannot be asked: a 503, never a wrong null.
    const missing = await request(app).get('/article/2000000');
    expect(missing.status).toBe(503);
    expect(missing.body).toEqual(UNAVAILABLE);
    expect(missing.headers['retry-after']).toBe('1');

    // That read passed its deadline on the primary, so the breaker's probe asked it and found nobody.
    for (let poll = 0; !(await request(app).get('/metrics')).text.includes('db_primary_writable 0'); poll++) {
      if (poll > 100) throw new Error('the breaker never opened');
      await sleep(100);
    }

    // Ready (reads are served), but not for writes.
    expect((await request(app).get('/ready').expect(200)).body.data).toEqual({
      status: 'ready',
      writes: 'unavailable',
    });
    expect((await request(app).get('/ready/write')).status).toBe(503);
    await request(app).get('/health').expect(200);

    // Writes fail at once: none of them tries the dead address (only the breaker's probe does).
    const attemptsBefore = primary.attempts;
    for (let write = 0; write < 10; write++) {
      const answer = await request(app)
        .post('/article/create')
        .send({ content: `during the loss ${write}` });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(UNAVAILABLE);
      expect(answer.headers['retry-after']).toBe('1');
    }
    expect(primary.attempts - attemptsBefore).toBeLessThanOrEqual(3);

    primary.restore();
    await untilWritesReady(app);
    const after = await request(app).post('/article/create').send({ content: 'after the loss' }).expect(201);

    // Exactly the acknowledged writes are stored; none of the refused ones half-applied.
    const rows = await sql<{ content: string }>(database.url, 'SELECT content FROM articles ORDER BY id');
    expect(rows.map((row) => row.content)).toEqual(['before the loss', 'after the loss']);
    expect((await request(app).get('/article').expect(200)).body.data).toEqual([article, after.body.data]);
  });
});

/**
 * A role change behind a stable address: the old primary turns read-only (as a demoted node
 * does) while the address now leads new connections to the new primary; the pool's open
 * connections still lead to the old one, as behind a stale route. Two real servers.
 */
describe('PostgreSQL role change under a pool', () => {
  let oldPrimary: PostgresTestServer;
  let newPrimary: PostgresTestServer;
  let address: SwitchableProxy;
  let container: Container;
  let app: Express;
  /** The new primary's URL with the old one's credentials, which the service keeps using. */
  let newPrimaryUrl: string;

  beforeAll(async () => {
    [oldPrimary, newPrimary] = await Promise.all([PostgresTestServer.create(), PostgresTestServer.create()]);
    await sql(newPrimary.url, `ALTER USER postgres PASSWORD '${oldPrimary.password}'`);
    const url = new URL(newPrimary.url);
    url.password = oldPrimary.password;
    newPrimaryUrl = url.toString();
    // The new primary has the schema, as a promoted replica would.
    await (await openDataSource({ kind: 'postgres', url: newPrimaryUrl })).destroy();
    address = await SwitchableProxy.start(targetOf(oldPrimary.url));
    container = await buildContainer(
      loadConfig({ DATABASE_URL: address.urlThrough(oldPrimary.url), PG_POOL_SIZE: '4', LOG_LEVEL: 'silent' }),
    );
    app = createApp(container);
  });
  afterAll(async () => {
    await closeContainer(container);
    await address.stop();
    await Promise.all([oldPrimary.destroy(), newPrimary.destroy()]);
  });

  it('drops the connections that land on a read-only node and sends the next writes to the new primary', async () => {
    // Several pooled connections to the old primary.
    const warmUp = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        request(app)
          .post('/article/create')
          .send({ content: `old ${n}` }),
      ),
    );
    expect(warmUp.map((answer) => answer.status)).toEqual(Array(8).fill(201));

    await sql(oldPrimary.url, 'ALTER SYSTEM SET default_transaction_read_only = on');
    await sql(oldPrimary.url, 'SELECT pg_reload_conf()');
    // The postmaster has reloaded (and signalled every backend) once a new session sees it.
    for (let poll = 0; ; poll++) {
      const [row] = await sql<{ ro: string }>(
        oldPrimary.url,
        "SELECT current_setting('default_transaction_read_only') AS ro",
      );
      if (row?.ro === 'on') break;
      if (poll > 100) throw new Error('the old primary never turned read-only');
      await sleep(20);
    }
    address.forwardTo(targetOf(newPrimary.url));

    // The first writes may meet a stale connection (503 with Retry-After); then they reach the new primary.
    const refused: number[] = [];
    for (let attempt = 0; ; attempt++) {
      const answer = await request(app)
        .post('/article/create')
        .send({ content: `new ${attempt}` });
      if (answer.status === 201) break;
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      refused.push(attempt);
      if (attempt >= 50) throw new Error('writes never reached the new primary: stale connections are reused');
      await sleep(100);
    }
    // Once writes reach the new primary, every one does: no stale connection is left in the pool.
    const later = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        request(app)
          .post('/article/create')
          .send({ content: `later ${n}` }),
      ),
    );
    expect(later.map((answer) => answer.status)).toEqual(Array(8).fill(201));

    const onNew = await sql<{ content: string }>(newPrimaryUrl, 'SELECT content FROM articles ORDER BY id');
    expect(onNew.filter((row) => row.content.startsWith('later'))).toHaveLength(8);
    const onOld = await sql<{ content: string }>(oldPrimary.url, 'SELECT content FROM articles ORDER BY id');
    expect(onOld.map((row) => row.content).sort()).toEqual(warmUp.map((_, n) => `old ${n}`).sort());
    expect(refused.length).toBeLessThan(50);
  });
});
