import type { Express } from 'express';
import request from 'supertest';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { type AppConfig, loadConfig } from '../../src/infrastructure/config/config';
import { PostgresStatementCounter } from '../support/postgres-statement-counter';
import { createPostgresDatabase } from '../support/test-databases';

/**
 * Revalidating a list on PostgreSQL: what it costs the database, and that instances behind a
 * load balancer agree on the tags. Two service instances (two composition roots) on one
 * database, their statements counted on the wire.
 */
describe('lists revalidated on PostgreSQL by two instances', () => {
  let counter: PostgresStatementCounter;
  let drop: () => Promise<void>;
  const containers: Awaited<ReturnType<typeof buildContainer>>[] = [];
  let first: Express;
  let second: Express;

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const { hostname, port } = new URL(database.url);
    counter = await PostgresStatementCounter.start({ host: hostname, port: Number(port) });
    const config: AppConfig = {
      ...loadConfig({ LOG_LEVEL: 'silent' }),
      database: { kind: 'postgres', url: counter.urlThrough(database.url) },
    };
    for (let n = 0; n < 2; n++) containers.push(await buildContainer(config));
    [first, second] = containers.map(createApp) as [Express, Express];
    for (const title of ['one', 'two', 'three']) {
      await request(first)
        .post('/article/create')
        .send({ title, content: 'c', tag: [{ name: 'ts' }] })
        .expect(201);
    }
  });

  afterAll(async () => {
    for (const container of containers) await closeContainer(container);
    await counter.stop();
    await drop();
  });

  const statementsOf = async (work: () => Promise<unknown>) => {
    const before = counter.count;
    await work();
    return counter.count - before;
  };

  /**
   * The version is the server's snapshot, which writes to other databases on the same server
   * move too (other test files run beside this one): `attempt` is tried until it holds, a few
   * times. One that never held (tags that differ between instances) fails every try.
   */
  const inAQuietMoment = async (attempt: () => Promise<boolean>) => {
    for (let tries = 0; tries < 20; tries++) if (await attempt()) return true;
    return false;
  };

  it.each(['/article', '/article?limit=2', '/article?tag=ts&q=TWO'])(
    "%s: both instances send the same tag, and each answers 304 to the other's",
    async (path) => {
      const agreed = await inAQuietMoment(async () => {
        const fromFirst = await request(first).get(path).expect(200);
        const fromSecond = await request(second).get(path).expect(200);
        expect(fromSecond.text).toBe(fromFirst.text);
        if (fromSecond.headers.etag !== fromFirst.headers.etag) return false;
        const fromSecondAgain = await request(second)
          .get(path)
          .set('If-None-Match', fromFirst.headers.etag ?? '');
        const fromFirstAgain = await request(first)
          .get(path)
          .set('If-None-Match', fromSecond.headers.etag ?? '');
        return fromSecondAgain.status === 304 && fromFirstAgain.status === 304;
      });
      expect(agreed).toBe(true);
    },
  );

  it.each(['/article', '/article?limit=2'])('%s: a 304 costs one statement, reading no article', async (path) => {
    // Read once first, so that the whole list is kept by the cache (its 200 then costs one statement too).
    await request(first).get(path).expect(200);
    const costs: number[] = [];
    const revalidated = await inAQuietMoment(async () => {
      const etag = (await request(first).get(path).expect(200)).headers.etag ?? '';
      let status = 0;
      const statements = await statementsOf(async () => {
        status = (await request(first).get(path).set('If-None-Match', etag)).status;
      });
      if (status === 304) costs.push(statements);
      return status === 304;
    });
    expect(revalidated).toBe(true);
    expect(costs).toEqual([1]);
  });

  it('a write through one instance makes the other answer 200 with the new list to the old tag', async () => {
    const before = await request(second).get('/article').expect(200);
    await request(first).post('/article/update').send({ id: 2, title: 'TWO' }).expect(200);
    const after = await request(second)
      .get('/article')
      .set('If-None-Match', before.headers.etag ?? '')
      .expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.data.map((article: { title: string }) => article.title)).toEqual(['one', 'TWO', 'three']);
  });
});
