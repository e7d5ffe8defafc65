import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitForListening } from './listening-line';

const ROOT = path.resolve(__dirname, '../..');

/** `npm start` run as a newcomer runs it, in a process group of its own (npm, its shell, node). */
export interface NpmStart {
  /** npm's own process: the one a terminal or a process manager signals. */
  npm: ChildProcess;
  baseUrl: string;
  /** Resolves with npm's exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** What npm and the service wrote to stderr so far (an abort leaves its assertion here). */
  stderr(): string;
  /** Whether any process of the group (npm, the shell, node) is still alive. */
  anyAlive(): boolean;
  /** SIGKILL to the whole group: the last resort of a test, whatever happened. */
  killAll(): void;
}

/**
 * Runs `npm start` in the repository with the given environment on top of this process's, and
 * resolves once the service logs that it listens (within `startMs`: npm start builds first).
 * `onLine` sees every line on stdout (npm's, and the service's JSON log).
 */
export async function npmStart(
  env: Record<string, string>,
  options: { startMs?: number; onLine?: (line: string) => void } = {},
): Promise<NpmStart> {
  const startMs = options.startMs ?? 120_000;
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...withoutDatabaseUrl(process.env), PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const group = npm.pid as number;
  const exited = new Promise<number | string>((resolve) =>
    npm.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  let stderr = '';
  npm.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const anyAlive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  const killAll = () => {
    if (anyAlive()) process.kill(-group, 'SIGKILL');
  };
  const port = await waitForListening(npm, {
    what: 'npm start',
    withinMs: startMs,
    exited,
    stderr: () => stderr,
    onLine: options.onLine,
  }).then(
    (entry) => Number(entry?.port),
    (error: unknown) => {
      killAll();
      throw error;
    },
  );
  return { npm, baseUrl: `http://127.0.0.1:${port}`, exited, stderr: () => stderr, anyAlive, killAll };
}

/** The environment without DATABASE_URL: the storage is what the caller says, or the default. */
function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = env;
  return rest;
}

/** Waits until no process of the group is left, or `withinMs` has passed; answers whether none is left. */
export async function groupGone(started: NpmStart, withinMs: number): Promise<boolean> {
  const giveUpAt = Date.now() + withinMs;
  while (started.anyAlive()) {
    if (Date.now() >= giveUpAt) return false;
    await sleep(100);
  }
  return true;
}
