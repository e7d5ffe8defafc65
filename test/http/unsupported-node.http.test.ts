import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScriptToExit } from '../support/service-process';

const FAKE_VERSION = path.resolve(__dirname, '../support/fake-node-version.cjs');

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
    const env = { PORT: '0', DATABASE_URL: 'sqlite:data/blog.sqlite', FAKE_NODE_VERSION: version };
    const result = await runScriptToExit(script, env, workDir, undefined, ['--require', FAKE_VERSION]);
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
