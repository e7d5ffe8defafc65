import { spawn } from 'node:child_process';
import path from 'node:path';

const LOGGER = path.resolve(__dirname, '../../dist/src/infrastructure/logging/logger.js');
const LINES = 1_000;

/**
 * The service's logger, in a process of its own that writes LINES lines and is killed (SIGKILL,
 * as an OOM kill would) in the same turn of the event loop: every line is on stdout. A buffered
 * destination has at most its first write under way by then; the rest die with the process.
 */
function logThenDie(): Promise<{ stdout: string; signal: NodeJS.Signals | null }> {
  const script = `
    const { createLogger } = require(${JSON.stringify(LOGGER)});
    const logger = createLogger('info');
    for (let i = 0; i < ${LINES}; i++) logger.info({ line: i }, 'written before the kill');
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  return new Promise((resolve) => child.once('close', (_code, signal) => resolve({ stdout, signal })));
}

describe('log lines', () => {
  it('are on stdout when the call returns: a process killed just after has lost none', async () => {
    const { stdout, signal } = await logThenDie();
    expect(signal).toBe('SIGKILL');
    const lines = stdout
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { line: number; msg: string });
    expect(lines.map((entry) => entry.line)).toEqual(Array.from({ length: LINES }, (_, i) => i));
  });
});
