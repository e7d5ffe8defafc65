import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A user to run a process as (PostgreSQL and PgBouncer refuse to run as root). */
export interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

/** Everything needed to start a component's process again (a restart uses the same spec). */
export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  readonly runAs?: RunAs;
}

/**
 * Starts a process in a session of its own (so it outlives this one, and its whole group can
 * be signalled and checked), with stdout and stderr appended to its log file. Answers its pid.
 */
export function launch(spec: LaunchSpec): number {
  const log = fs.openSync(spec.logFile, 'a');
  try {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env },
      detached: true,
      stdio: ['ignore', log, log],
      ...(spec.runAs && { uid: spec.runAs.uid, gid: spec.runAs.gid }),
    });
    if (child.pid === undefined) throw new Error(`could not start ${spec.command}`);
    child.unref();
    return child.pid;
  } finally {
    fs.closeSync(log);
  }
}

/** The postgres user when this process is root; undefined (run as ourselves) otherwise. */
export function postgresUserIfRoot(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
  };
}

interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
}

/** Every live (not zombie) process, from /proc (Linux). */
function liveProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (name) ": state, ppid, pgrp, ...
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') entries.push({ pid: Number(entry), ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // exited meanwhile
    }
  }
  return entries;
}

/**
 * The live processes a launched process stands for: itself, its process group, and their
 * descendants. (PostgreSQL's backends each start a session of their own, so the group alone
 * would miss them.)
 */
export function groupMembers(leader: number): number[] {
  const all = liveProcesses();
  const found = new Set(all.filter((entry) => entry.pid === leader || entry.pgrp === leader).map((entry) => entry.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of all) {
      if (!found.has(entry.pid) && found.has(entry.ppid)) {
        found.add(entry.pid);
        grew = true;
      }
    }
  }
  return [...found];
}

/** Live processes whose working directory is inside `dir` (PostgreSQL's run in their data directory). */
export function processesWorkingIn(dir: string): number[] {
  return liveProcesses()
    .filter((entry) => {
      try {
        const cwd = fs.readlinkSync(`/proc/${entry.pid}/cwd`);
        return cwd === dir || cwd.startsWith(`${dir}/`);
      } catch {
        return false;
      }
    })
    .map((entry) => entry.pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch {
    return false;
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * Sends `signal` to the process and waits until its whole group is gone; past `graceMs` the
 * group is killed (SIGKILL). Answers whether it stopped on its own.
 */
export async function stopGroup(pid: number, signal: NodeJS.Signals, graceMs: number): Promise<boolean> {
  signalQuietly(pid, signal);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (groupMembers(pid).length === 0) return true;
    await sleep(50);
  }
  signalQuietly(-pid, 'SIGKILL');
  for (const member of groupMembers(pid)) signalQuietly(member, 'SIGKILL');
  await waitUntil(async () => groupMembers(pid).length === 0, 5_000, `process group ${pid} to end after SIGKILL`);
  return false;
}

export function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Polls `check` until it answers true; throws naming `what` past the timeout. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await sleep(100);
  }
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
}

/** Whether something already listens on the port (then `up` must not take it). */
export function portIsTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/** CPU time (user + system) so far of a launched process and its own (groupMembers), in clock ticks (getconf CLK_TCK). */
export function groupCpuTicks(groupId: number): number {
  let ticks = 0;
  for (const pid of groupMembers(groupId)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After "pid (name) ": utime and stime are the 12th and 13th fields.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks;
}
