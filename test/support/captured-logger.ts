import { createLogger, type Logger } from '../../src/infrastructure/logging/logger';

/** The service's own logger, its JSON lines kept in memory, parsed, for tests to read. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(level, 'json', { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}
