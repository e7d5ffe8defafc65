import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningService, runScriptToExit, startService, stopService } from '../support/service-process';
import { createPostgresDatabase, type TestDatabase } from '../support/test-databases';

const TOKEN_LINE = /^(blog_[A-Za-z0-9_-]{43})\n$/;

/**
 * `npm run keys` (the built dist/src/keys.js) as an operator runs it beside a running service,
 * on the same database: the token it prints opens writes, `list` shows the key and never a
 * token, `revoke` makes the service refuse it, and a refused command writes nothing.
 */
describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const)('npm run keys on %s', (_, kind) => {
  let workDir: string;
  let database: TestDatabase | null = null;
  let env: Record<string, string>;
  let service: RunningService | null = null;

  beforeEach(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-keys-'));
    if (kind === 'postgres') database = await createPostgresDatabase();
    env = { DATABASE_URL: database?.url ?? `sqlite:${path.join(workDir, 'blog.sqlite')}` };
  });
  afterEach(async () => {
    if (service) await stopService(service);
    service = null;
    await database?.drop();
    database = null;
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const keys = (...args: string[]) => runScriptToExit(['keys.js', ...args], env, workDir);
  const create = (token: string) =>
    fetch(`${service?.baseUrl}/article/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'By key', content: 'x', visible: true }),
    });

  it('hands out a key the service accepts, lists it without its token, and revokes it', async () => {
    service = await startService(env, workDir);
    const created = await keys('create', '--author', 'Ada Lovelace', '--role', 'author');
    expect(created.code).toBe(0);
    const token = TOKEN_LINE.exec(created.stdout)?.[1] ?? '';
    expect(token).not.toBe('');
    expect(created.stderr).toContain('the token above is shown this once');
    expect(created.stderr).not.toContain(token);

    const answer = await create(token);
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as { data: { author: unknown } }).data.author).toMatchObject({
      name: 'Ada Lovelace',
      slug: 'ada-lovelace',
    });

    const listed = await keys('list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^\S+ blog_\S+… author "Ada Lovelace" \(ada-lovelace\) created /)]);
    expect(listed.stdout).not.toContain(token);
    const id = lines[0]?.split(' ')[0] ?? '';

    const revoked = await keys('revoke', id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    // The service sees the revocation at its next reading of the keys (every 400 ms).
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 401; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await create(token)).status;
    }
    expect(status).toBe(401);
  });

  it('refuses a bad role or command with exit code 2 and writes nothing', async () => {
    const badRole = await keys('create', '--author', 'Ada Lovelace', '--role', 'owner');
    expect(badRole.code).toBe(2);
    expect(badRole.stdout).toBe('');
    expect(badRole.stderr).toMatch(/^keys: .*role/);
    const badCommand = await keys('rotate');
    expect(badCommand.code).toBe(2);
    expect(badCommand.stderr).toContain('unknown command "rotate"');
    const listed = await keys('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('');
  });
});

describe('npm run keys without a database', () => {
  it('refuses DATABASE_URL=memory: with exit code 2: keys there live in the service process', async () => {
    const result = await runScriptToExit(['keys.js', 'list'], { DATABASE_URL: 'memory:' }, os.tmpdir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('create them over HTTP');
  });
});
