import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runServiceToExit, startService } from '../support/service-process';

describe('WORKERS=2: a primary and two server processes sharing the port', () => {
  let workDir: string;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-cluster-'));
  });
  afterEach(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('serves from both workers on one database, and on SIGTERM every worker drains and the primary exits 0', async () => {
    // startService resolves when the first worker listens; the requests wait for the second too,
    // or they may all reach the first one.
    let listening = 0;
    let bothListening: () => void = () => {};
    const bothUp = new Promise<void>((resolve) => {
      bothListening = resolve;
    });
    const service = await startService({ DATABASE_URL: 'sqlite:cluster.sqlite', WORKERS: '2' }, workDir, {
      onJsonLine: (entry) => {
        if (entry.msg === 'blog article API is listening' && ++listening === 2) bothListening();
      },
    });
    await bothUp;
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${service.baseUrl}/article/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({ content: `from client ${i}` }),
        }).then((response) => response.status),
      ),
    );
    expect(created).toEqual(Array(40).fill(201));
    const listed = (await (await fetch(`${service.baseUrl}/article`)).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(40);

    service.process.kill('SIGTERM');
    await expect(service.exited).resolves.toBe(0);
    const workersThatServed = new Set(
      service.logLines.filter((line) => line.path === '/article/create').map((line) => line.worker),
    );
    expect(workersThatServed.size).toBe(2);
    expect(service.logLines.filter((line) => line.msg === 'stopped')).toHaveLength(2);
    expect(service.logLines.at(-1)).toMatchObject({ msg: 'stopped: every worker has exited', clean: true });
  });

  it('refuses several workers on the in-memory store, at start', async () => {
    const result = await runServiceToExit({ DATABASE_URL: 'memory:', WORKERS: '2' }, workDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Configuration error: WORKERS: each worker would have its own in-memory store/);
  });
});
