import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sqliteDriverPackage } from '../../src/infrastructure/persistence/typeorm/sqlite-driver';

const ROOT = path.resolve(__dirname, '../..');

const DRIVER = sqliteDriverPackage();

/**
 * A copy of the built service whose SQLite driver (the one of this Node.js line) has no native
 * addon: better-sqlite3 12 on Node.js 20 as after an install that skipped its install script
 * (npm 12 without an allowScripts entry, --ignore-scripts), better-sqlite3 13 as on a platform it
 * ships no binary for. dist/src copied, every other package linked to the real node_modules, the
 * driver copied without its build/ and prebuilds/ folders. Node runs it with --preserve-symlinks,
 * so that the driver is found in the copy and not in the real node_modules.
 */
function serviceWithoutSqliteAddon(into: string): string {
  fs.cpSync(path.join(ROOT, 'dist', 'src'), path.join(into, 'dist', 'src'), { recursive: true });
  const modules = path.join(into, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === DRIVER || entry === '.bin') continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  const driver = path.join(ROOT, 'node_modules', DRIVER);
  for (const part of ['package.json', 'lib', 'node_modules']) {
    if (!fs.existsSync(path.join(driver, part))) continue;
    fs.cpSync(path.join(driver, part), path.join(modules, DRIVER, part), { recursive: true });
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

  it('stops with one line that says what is missing and what to do', async () => {
    const main = serviceWithoutSqliteAddon(workDir);
    const result = await runToExit(main, workDir);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      DRIVER === 'better-sqlite3-node20'
        ? expect.stringMatching(
            /^Failed to start: better-sqlite3-node20's native SQLite binding is not built \(npm did not run its install script\): run `npm rebuild better-sqlite3-node20`/,
          )
        : `Failed to start: better-sqlite3 ships no native SQLite binding for ${process.platform}-${process.arch}: ` +
          'set DATABASE_URL to a PostgreSQL server',
    ]);
  });
});
