import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommitKillProxy } from '../support/commit-kill-proxy';
import { sql } from '../support/postgres-sql';
import { type RunningService, startService } from '../support/service-process';
import { createPostgresDatabase, type TestDatabase } from '../support/test-databases';

/** The PostgreSQL statement of a keyed create (src/infrastructure/persistence/typeorm/idempotency-statements.ts). */
const KEYED_CREATE_STATEMENT = 'idempotency_claim_and_insert_article';

/**
 * The worst moment for a keyed create: its transaction has committed on PostgreSQL, and the
 * service is SIGKILLed before it even reads that reply, so the client never gets its answer.
 * A proxy between the service and the server holds the server's ReadyForQuery after the commit
 * and kills the service at that moment, deterministically. The client retries with the same
 * key on a restarted service: it gets the stored article (replayed), and there is one article.
 * Without idempotent creates the retry would make a second article.
 */
describe('a keyed create whose process is SIGKILLed right after the commit, before answering', () => {
  let workDir: string;
  const cleanUps: Array<() => Promise<unknown> | unknown> = [];
  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-idempotent-crash-'));
  });
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  const stopped = async (service: RunningService) => {
    if (service.process.exitCode === null && service.process.signalCode === null) {
      service.process.kill('SIGTERM');
      await service.exited;
    }
  };

  it.each([
    ['without references (one autocommit statement)', { title: 'once', content: 'c', visible: true }],
    ['with tag names (a transaction, killed after COMMIT)', { content: 'c', tag: [{ name: 'crash' }] }],
  ])('%s: the retry with the same key answers the stored article, and there is one', async (_, body) => {
    const database: TestDatabase = await createPostgresDatabase();
    cleanUps.push(() => database.drop());
    const target = new URL(database.url);
    let first: RunningService | undefined;
    const proxy = await CommitKillProxy.start(
      { host: target.hostname, port: Number(target.port) },
      KEYED_CREATE_STATEMENT,
      () => first?.process.kill('SIGKILL'),
    );
    cleanUps.push(() => proxy.stop());
    first = await startService({ DATABASE_URL: proxy.urlThrough(database.url), SHUTDOWN_DRAIN_MS: '0' }, workDir);
    cleanUps.push(() => stopped(first as RunningService));

    const send = (baseUrl: string) =>
      fetch(`${baseUrl}/article/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'crash-key-1' },
        body: JSON.stringify(body),
      });
    await expect(send(first.baseUrl)).rejects.toThrow();
    await expect(first.exited).resolves.toBe('SIGKILL');
    expect(proxy.fired).toBe(true);
    // The commit happened: the article and its key are both there, though nobody was told.
    expect(await countRows(database.url)).toEqual({ articles: 1, keys: 1 });

    const second = await startService({ DATABASE_URL: database.url, SHUTDOWN_DRAIN_MS: '0' }, workDir);
    cleanUps.push(() => stopped(second));
    const retry = await send(second.baseUrl);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const replayed = (await retry.json()) as { data: { id: number } };
    const listed = (await (await fetch(`${second.baseUrl}/article`)).json()) as { data: unknown[] };
    expect(listed.data).toEqual([replayed.data]);
    expect(await countRows(database.url)).toEqual({ articles: 1, keys: 1 });
  });
});

async function countRows(url: string): Promise<{ articles: number; keys: number }> {
  const rows = await sql<{ articles: number; keys: number }>(
    url,
    'SELECT (SELECT count(*)::int FROM articles) AS articles, (SELECT count(*)::int FROM idempotency_keys) AS keys',
  );
  return rows[0] as { articles: number; keys: number };
}
