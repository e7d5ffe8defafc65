import { setTimeout as sleep } from 'node:timers/promises';
import type { Express } from 'express';
import type { Container } from 'inversify';
import request from 'supertest';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { PostgresTestServer } from '../support/postgres-server';
import { sql } from '../support/postgres-sql';

/**
 * Cancels the first commit found waiting for its synchronous standby (polled, bounded in count),
 * as statement_timeout or a failover's terminated session would. PostgreSQL then completes the
 * COMMIT successfully, with a WARNING that it committed locally only.
 */
async function cancelTheSyncWait(url: string): Promise<void> {
  for (let poll = 0; poll < 500; poll++) {
    const waiting = await sql<{ pid: number }>(url, `SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep'`);
    if (waiting[0]) {
      await sql(url, `SELECT pg_cancel_backend(${Number(waiting[0].pid)})`);
      return;
    }
    await sleep(20);
  }
  throw new Error('no commit ever waited for the synchronous standby');
}

/**
 * A primary whose synchronous_standby_names names a standby that never connects, so that every
 * commit waits for an acknowledgement that never comes, like a primary whose standby is gone.
 */
describe('PostgreSQL commit whose synchronous-standby wait is cancelled', () => {
  let server: PostgresTestServer;
  let container: Container;
  let app: Express;

  beforeAll(async () => {
    server = await PostgresTestServer.create();
    container = await buildContainer(loadConfig({ DATABASE_URL: server.url, LOG_LEVEL: 'silent' }));
    app = createApp(container);
    await sql(server.url, `ALTER SYSTEM SET synchronous_standby_names = 'standby_that_never_connects'`);
    await sql(server.url, 'SELECT pg_reload_conf()');
  });
  afterAll(async () => {
    await closeContainer(container);
    await server.destroy();
  });

  it.each([
    ['a create of one statement (its implicit commit)', { content: 'one statement' }],
    ['a create in a transaction (its COMMIT)', { content: 'in a transaction', tag: [{ name: 'sync' }] }],
  ])('answers %s 503 with Retry-After, never 201, though it committed locally', async (_, body) => {
    const [answer] = await Promise.all([
      request(app).post('/article/create').send(body),
      cancelTheSyncWait(server.url),
    ]);

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toEqual({ statusCode: 10001, data: null, message: 'storage is unavailable, try again later' });
    // Why it cannot be a 201: the row is visible here, and a failover to the standby would lose it.
    const rows = await sql<{ content: string }>(server.url, 'SELECT content FROM articles');
    expect(rows.map((row) => row.content)).toContain(body.content);
  });
});
