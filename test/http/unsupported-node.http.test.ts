import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BUILT = path.resolve(__dirname, '../../dist/src');
const FAKE_VERSION = path.resolve(__dirname, '../support/fake-node-version.cjs');

function runReportingVersion(script: string, version: string, cwd: string) {
  const child = spawn(process.execPath, ['--require', FAKE_VERSION, path.join(BUILT, script)], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      DATABASE_URL: 'sqlite:data/blog.sqlite',
      FAKE_NODE_VERSION: version,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // A service that starts anyway would never exit: stop it, and the test fails on its exit code.
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('a start on a Node.js line the service does not support', () => {
  let workDir: string;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-node-line-'));
  });
  afterEach(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it.each([
    ['main.js', 'v25.2.0'],
    ['main.js', 'v18.20.8'],
    ['migrate.js', 'v23.11.1'],
  ])('%s on %s: one line naming the supported lines, exit 1, nothing opened', async (script, version) => {
    const result = await runReportingVersion(script, version, workDir);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Node.js ${version} is not supported: this service runs on Node.js 20.19.0 or newer on 20, ` +
        '22.15.0 or newer on 22, 24 or 26. Install one of those, then run `npm ci` again.\n',
    });
    expect(fs.existsSync(path.join(workDir, 'data'))).toBe(false);
  });
});
