import request from 'supertest';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { PostgresTestServer } from '../support/postgres-server';

/** A PostgreSQL server of this file's own, stopped abruptly under the running app. */
describe('PostgreSQL going away and coming back', () => {
  let server: PostgresTestServer;
  beforeAll(async () => {
    server = await PostgresTestServer.create();
  });
  afterAll(async () => {
    await server.destroy();
  });

  it('answers 503 while the database is down and serves again once it is back, without restart', async () => {
    const container = await buildContainer({
      ...loadConfig({ LOG_LEVEL: 'silent' }),
      database: { kind: 'postgres', url: server.url },
    });
    const app = createApp(container);
    try {
      const created = await request(app).post('/article/create').send({ content: 'before the outage' });
      expect(created.status).toBe(201);

      await server.stop('immediate');
      for (const call of [
        () => request(app).get('/article'),
        () => request(app).get(`/article/${created.body.data.id}`),
        () => request(app).post('/article/create').send({ content: 'during the outage' }),
      ]) {
        const response = await call();
        expect(response.status).toBe(503);
        expect(response.body).toEqual({
          statusCode: 10001,
          data: null,
          message: 'storage is unavailable, try again later',
        });
      }

      await server.start();
      const after = await request(app).get('/article');
      expect(after.status).toBe(200);
      expect(after.body.data.map((article: { content: string }) => article.content)).toEqual(['before the outage']);
    } finally {
      await closeContainer(container);
    }
  });
});
