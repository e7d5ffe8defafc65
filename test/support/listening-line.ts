import type { ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export const LISTENING_MESSAGE = 'blog article API is listening';

export interface ListeningWait {
  /** What the process is, for the error messages ("service", "npm start"). */
  what: string;
  withinMs: number;
  /** Resolves with the process's exit code (or signal): the wait fails if it exits first. */
  exited: Promise<number | string>;
  /** What the process wrote to stderr so far, for the error messages. */
  stderr(): string;
  /** The line to wait for, with its JSON when it is JSON; the service's "listening" line by default. */
  ready?: (line: string, entry: Record<string, unknown> | null) => boolean;
  /** Every line on stdout, with its JSON when it is JSON (the service's log). */
  onLine?: (line: string, entry: Record<string, unknown> | null) => void;
}

/**
 * Reads a process's stdout line by line and resolves with the first line `ready` accepts, as
 * JSON when it is (the service logs its port in its "listening" line); rejects when the process
 * exits first or `withinMs` passes. The lines go on reaching `onLine` after that.
 */
export function waitForListening(child: ChildProcess, wait: ListeningWait): Promise<Record<string, unknown> | null> {
  const ready = wait.ready ?? ((_line, entry) => entry?.msg === LISTENING_MESSAGE);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${wait.what} did not listen within ${wait.withinMs} ms: ${wait.stderr()}`)),
      wait.withinMs,
    );
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const entry = jsonOf(line);
      wait.onLine?.(line, entry);
      if (ready(line, entry)) {
        clearTimeout(timer);
        resolve(entry);
      }
    });
    void wait.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${wait.what} exited with ${code} before listening: ${wait.stderr()}`));
    });
  });
}

function jsonOf(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
