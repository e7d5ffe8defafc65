import pino, { type Logger } from 'pino';

/** A real pino logger whose JSON lines are kept in memory, parsed, for tests to read. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}
