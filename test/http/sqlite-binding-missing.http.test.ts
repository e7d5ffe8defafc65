import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * A copy of the built service whose better-sqlite3 has no native addon, as after an install that
 * skipped the package's install script (npm 12 without an allowScripts entry, --ignore-scripts):
 * dist/src copied, every other package linked to the real node_modules, better-sqlite3 copied
 * without its build/ folder. Node runs it with --preserve-symlinks, so that TypeORM, which
 * loads the driver itself, finds the copy beside it and not the built package.
 */
function serviceWithoutSqliteAddon(into: string): string {
  fs.cpSync(path.join(ROOT, 'dist', 'src'), path.join(into, 'dist', 'src'), { recursive: true });
  const modules = path.join(into, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === 'better-sqlite3' || entry === '.bin') continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  const driver = path.join(ROOT, 'node_modules', 'better-sqlite3');
  for (const part of ['package.json', 'lib']) {
    fs.cpSync(path.join(driver, part), path.join(modules, 'better-sqlite3', part), { recursive: true });
  }
  return path.join(into, 'dist', 'src', 'main.js');
}

function runToExit(main: string, cwd: string) {
  const child = spawn(process.execPath, ['--preserve-symlinks', main], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', DATABASE_URL: 'sqlite:data/blog.sqlite' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // A service that starts anyway would never exit: stop it, and the test fails on its exit code.
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, stderr });
    }),
  );
}

describe('a start on SQLite without the native addon', () => {
  let workDir: string;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-no-addon-'));
  });
  afterEach(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('stops with one line that says what is missing and the command that builds it', async () => {
    const main = serviceWithoutSqliteAddon(workDir);
    const result = await runToExit(main, workDir);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Failed to start: better-sqlite3's native SQLite binding is not built \(npm did not run its install script\): run `npm rebuild better-sqlite3`/,
      ),
    ]);
  });
});
