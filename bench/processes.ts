import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { SERVICE_NODE_FLAGS } from '../src/process/node-flags';
import { freePort } from '../test/support/free-port';

/** A server under test, started as a process of its own and reached on 127.0.0.1. */
export interface ServerProcess {
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  /** Processes in its tree now: 1, or 1 + its workers when it forks them. */
  processCount(): number;
  /** Resident memory of its whole process tree, in bytes. */
  rssBytes(): number;
  /** CPU time (user + system) its whole process tree has used so far, in seconds. */
  cpuSeconds(): number;
  /** Throws with the end of its stderr when the process has exited. */
  checkAlive(): void;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/** Starts a build of the service as `npm start` does: with the service's Node.js flags. */
export function startService(
  label: string,
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  return startServer(label, script, env, [...SERVICE_NODE_FLAGS, ...nodeArgs]);
}

/**
 * Starts `node <script>` with PORT set to a free port and waits until it answers HTTP. Its
 * stderr is kept to say why it died, if it does; its stdout goes to `onStdout` when given.
 */
export async function startServer(
  label: string,
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  onStdout?: (chunk: Buffer) => void,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', onStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  if (onStdout) child.stdout?.on('data', onStdout);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child, () => stderr);
  return {
    label,
    url,
    pid: child.pid as number,
    processCount: () => processTree(child.pid as number).length,
    rssBytes: () => processTree(child.pid as number).reduce((sum, pid) => sum + rssOf(pid), 0),
    cpuSeconds: () => processTree(child.pid as number).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    checkAlive: () => {
      if (child.exitCode === null && child.signalCode === null) return;
      throw new Error(`${label} exited (${child.exitCode ?? child.signalCode}):\n${stderr}`);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(forced);
    },
  };
}

async function waitUntilAnswering(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${url}: the process exited (${child.exitCode ?? child.signalCode}) before answering:\n${stderr()}`,
      );
    }
    try {
      // Any HTTP answer means it listens; /article/0 is a cheap 400 on both servers.
      await fetch(`${url}/article/0`, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`${url}: no answer within ${START_TIMEOUT_MS / 1000} s:\n${stderr()}`);
}

/** The process and its descendants, from /proc (Linux). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    const parent = tree[index] as number;
    try {
      for (const task of fs.readdirSync(`/proc/${parent}/task`)) {
        const children = fs.readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // The process is gone, or /proc is not there.
    }
  }
  return tree;
}

function rssOf(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

/** A size line of /proc/<pid>/status (VmRSS, VmHWM, …) in bytes; 0 once the process is gone. */
function statusBytes(pid: number, field: string): number {
  try {
    const kilobytes = new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kilobytes ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's CPU times: USER_HZ, 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** utime + stime of /proc/<pid>/stat (fields 14 and 15; the command name before them may hold spaces). */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds so far of every process of this machine named `name` (`postgres`: the server, its
 * backends and workers), by pid: two readings around a run give the database's CPU for it.
 */
export function cpuSecondsByProcess(name: string): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== name) continue;
    } catch {
      continue;
    }
    seconds.set(Number(entry), cpuSecondsOf(Number(entry)));
  }
  return seconds;
}

/** The CPU seconds used between two readings of cpuSecondsByProcess (a process gone meanwhile is not counted). */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/**
 * A server's peak RSS while work runs: the kernel's high-water mark of each of its processes
 * (VmHWM), reset as the work starts (writing 5 to /proc/<pid>/clear_refs). Samples every 250 ms,
 * how every figure before 2026-11-29 was taken, missed peaks between them by up to 10 MB. Where the mark cannot be
 * reset (not the processes' owner), the highest of those samples.
 */
export async function withPeakRss<T>(server: ServerProcess, work: () => Promise<T>): Promise<[T, number]> {
  const marked = resetPeakRss(server.pid);
  let peak = server.rssBytes();
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssBytes());
  }, 250);
  try {
    const result = await work();
    peak = Math.max(peak, server.rssBytes());
    if (marked) peak = Math.max(peak, peakRssSinceReset(server.pid));
    return [result, peak];
  } finally {
    clearInterval(sampler);
  }
}

/** Resets the RSS high-water mark of the process and its descendants; false where that is not allowed. */
function resetPeakRss(rootPid: number): boolean {
  try {
    for (const pid of processTree(rootPid)) fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The sum of the tree's high-water marks: at least its peak, as each process may peak at its own moment. */
function peakRssSinceReset(rootPid: number): number {
  return processTree(rootPid).reduce((sum, pid) => sum + statusBytes(pid, 'VmHWM'), 0);
}
