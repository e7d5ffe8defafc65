import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { groupGone, type NpmStart, npmStart } from '../support/npm-start';
import { requestInFlight } from '../support/request-in-flight';

const FINISHING = 'stopping: no new connections; finishing the requests in flight';

/**
 * A stop signal sent to `npm start` itself, as a terminal's Ctrl+C or a process manager sends it
 * to the process it started: the request in flight is answered, npm exits 0, and nothing of it
 * (npm, its shell, node) is left after 10 s. With `"start": "npm run build && node …"`, npm
 * passed the signal to the shell, the shell died of it, npm exited 143 and node went on running
 * with no parent: `exec` makes node the process npm signals.
 */
describe.each(['SIGTERM', 'SIGINT'] as const)('%s to npm start', (signal) => {
  let workDir: string;
  let started: NpmStart | undefined;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-npm-start-stop-'));
  });
  afterEach(() => {
    started?.killAll();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('answers the request in flight, exits 0 and leaves no process behind', async () => {
    let finishing: () => void = () => {};
    const finishingInFlight = new Promise<void>((resolve) => {
      finishing = resolve;
    });
    started = await npmStart(
      { DATABASE_URL: `sqlite:${path.join(workDir, 'blog.sqlite')}`, SHUTDOWN_DRAIN_MS: '0' },
      { onLine: (line) => line.includes(FINISHING) && finishing() },
    );
    const request = await requestInFlight(
      new URL('/article/create', started.baseUrl),
      JSON.stringify({ content: `sent after ${signal}` }),
    );

    started.npm.kill(signal);
    await finishingInFlight;
    request.finish();

    await expect(request.answered).resolves.toBe(201);
    await expect(started.exited).resolves.toBe(0);
    await expect(groupGone(started, 10_000)).resolves.toBe(true);
  }, 180_000);
});
