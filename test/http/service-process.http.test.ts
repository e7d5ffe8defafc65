import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS } from '../../src/infrastructure/persistence/typeorm/migrations';
import { runScriptToExit, runServiceToExit, startService } from '../support/service-process';
import { createPostgresDatabase, type TestDatabase } from '../support/test-databases';

/** The built service as a real process: zero-setup start, durability under SIGKILL, clean stop, bad config. */
describe('the service process', () => {
  let workDir: string;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-process-'));
  });
  afterEach(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  interface ArticleBody {
    data: { id: number; content: string; tag: { name: string }[] } & unknown[];
  }
  const read = async (response: Response) => (await response.json()) as ArticleBody;

  const post = (baseUrl: string, body: object) =>
    fetch(`${baseUrl}/article/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('starts with no configuration on an SQLite file under ./data and answers GET /seed/create', async () => {
    const service = await startService({}, workDir);
    try {
      const response = await fetch(`${service.baseUrl}/seed/create`);
      expect(response.status).toBe(200);
      expect((await read(response)).data).toHaveLength(3);
      expect(fs.existsSync(path.join(workDir, 'data', 'blog.sqlite'))).toBe(true);
    } finally {
      service.process.kill('SIGTERM');
      await expect(service.exited).resolves.toBe(0);
    }
  });

  describe.each([
    ['SQLite', async () => ({ url: `sqlite:${path.join(workDir, 'durable.sqlite')}`, drop: async () => {} })],
    ['PostgreSQL', async (): Promise<TestDatabase> => createPostgresDatabase()],
  ])('on %s', (_name, openDatabase) => {
    it('keeps every acknowledged write when killed with SIGKILL right after a 201', async () => {
      const database = await openDatabase();
      try {
        const acknowledged: { id: number; content: string }[] = [];
        for (let round = 0; round < 3; round++) {
          const service = await startService({ DATABASE_URL: database.url }, workDir);
          const content = `round ${round} ${'x'.repeat(1000)}`;
          const response = await post(service.baseUrl, { content, tag: [{ name: `tag-${round}` }] });
          expect(response.status).toBe(201);
          service.process.kill('SIGKILL');
          acknowledged.push({ id: (await read(response)).data.id, content });
          await expect(service.exited).resolves.toBe('SIGKILL');
        }
        const service = await startService({ DATABASE_URL: database.url }, workDir);
        try {
          for (const [round, write] of acknowledged.entries()) {
            const body = await read(await fetch(`${service.baseUrl}/article/${write.id}`));
            expect(body.data).toMatchObject({ id: write.id, content: write.content, tag: [{ name: `tag-${round}` }] });
          }
        } finally {
          service.process.kill('SIGTERM');
          await expect(service.exited).resolves.toBe(0);
        }
      } finally {
        await database.drop();
      }
    });
  });

  it('on SIGTERM finishes the request in flight, then exits 0 promptly', async () => {
    const service = await startService({ DATABASE_URL: 'sqlite:drain.sqlite' }, workDir);
    const body = JSON.stringify({ content: 'sent across the shutdown' });
    const url = new URL('/article/create', service.baseUrl);
    const answered = new Promise<number>((resolve, reject) => {
      const call = http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      call.once('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      call.once('error', reject);
      call.write(body.slice(0, 10));
      // The rest of the body arrives only after SIGTERM.
      setTimeout(() => {
        service.process.kill('SIGTERM');
        setTimeout(() => call.end(body.slice(10)), 300);
      }, 200);
    });
    await expect(answered).resolves.toBe(201);
    const exitedAt = Date.now();
    await expect(service.exited).resolves.toBe(0);
    // Not held open until the finished request's keep-alive connection times out (5 s).
    expect(Date.now() - exitedAt).toBeLessThan(4_000);
    // A new connection is refused once it has stopped.
    await expect(fetch(`${service.baseUrl}/article`)).rejects.toThrow();
  });

  it('npm run migrate brings a new database to the current schema, and again is a no-op', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(workDir, 'migrated.sqlite')}` };
    for (let run = 0; run < 2; run++) {
      const result = await runScriptToExit('migrate.js', env, workDir);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`is at the current schema (${MIGRATIONS.sqlite.length} migrations applied)`);
    }
  });

  it.each([
    [{ PORT: 'abc' }, /^Configuration error: PORT: /],
    [{ DATABASE_URL: 'mysql://localhost/db' }, /^Configuration error: DATABASE_URL: /],
    [{ BODY_LIMIT: 'huge' }, /^Configuration error: BODY_LIMIT: /],
  ])('stops at start with one line naming the variable for %o', async (env, message) => {
    const result = await runServiceToExit(env, workDir);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });
});
