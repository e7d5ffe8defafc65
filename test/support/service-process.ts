import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { waitForListening } from './listening-line';

const BUILT = path.resolve(__dirname, '../../dist/src');
const MAIN = path.join(BUILT, 'main.js');

export interface RunningService {
  process: ChildProcess;
  baseUrl: string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Every JSON line the service has logged so far, parsed. */
  logLines: Array<Record<string, unknown>>;
  /** What the process wrote to stderr so far (a crash leaves its stack here). */
  stderr(): string;
}

export interface ServiceOptions {
  /** Options for node itself, before the script (e.g. --expose-gc, --require a probe). */
  nodeArgs?: string[];
  /** Every JSON line the service prints on stdout (its log, and any probe's lines). */
  onJsonLine?: (entry: Record<string, unknown>) => void;
  /**
   * Resolve on this line, or as soon as the process is spawned, rather than on the first
   * 'listening' line (then baseUrl has no port).
   */
  readyWhen?: ((entry: Record<string, unknown>) => boolean) | 'spawned';
}

/**
 * Starts the built service (`npm run build` runs before `npm test`) as a real process and
 * resolves once it logs that it listens (or `readyWhen`'s line). PORT=0 lets the system pick a free port.
 */
export function startService(
  env: Record<string, string>,
  cwd: string,
  options: ServiceOptions = {},
): Promise<RunningService> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const logLines: Array<Record<string, unknown>> = [];
  const running = (port?: unknown): RunningService => ({
    process: child,
    baseUrl: port === undefined ? 'http://127.0.0.1' : `http://127.0.0.1:${port}`,
    exited,
    logLines,
    stderr: () => stderr,
  });
  const readyWhen = options.readyWhen;
  const listening = waitForListening(child, {
    what: 'service',
    withinMs: 20_000,
    exited,
    stderr: () => stderr,
    ready: typeof readyWhen === 'function' ? (_line, entry) => entry !== null && readyWhen(entry) : undefined,
    onLine: (_line, entry) => {
      if (!entry) return;
      logLines.push(entry);
      options.onJsonLine?.(entry);
    },
  });
  if (options.readyWhen === 'spawned') {
    // The log is still collected; whether it listens or exits is the test's to see.
    listening.catch(() => {});
    return new Promise((resolve) => child.once('spawn', () => resolve(running())));
  }
  return listening.then((entry) => running(entry?.port));
}

/** Stops a service a test started (SIGTERM) and waits for its exit, unless it has exited already. */
export async function stopService(service: RunningService): Promise<void> {
  if (service.process.exitCode !== null) return;
  service.process.kill('SIGTERM');
  await service.exited;
}

/** Runs the built service to its end and collects what it printed. */
export function runServiceToExit(env: Record<string, string>, cwd: string) {
  return runScriptToExit('main.js', env, cwd);
}

/**
 * Runs a built entry point of dist/src (main.js, migrate.js, or backup.js with its arguments:
 * `['backup.js', '--to', file]`) to its end; `onStderr` sees its stderr as it comes, `nodeArgs`
 * go to node before the script.
 */
export function runScriptToExit(
  script: string | readonly [string, ...string[]],
  env: Record<string, string>,
  cwd: string,
  onStderr: (text: string) => void = () => {},
  nodeArgs: readonly string[] = [],
) {
  const [file, ...args] = typeof script === 'string' ? [script] : script;
  const child = spawn(process.execPath, [...nodeArgs, path.join(BUILT, file), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    onStderr(stderr);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
}
