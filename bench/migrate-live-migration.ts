import { DataSource, type Logger } from 'typeorm';
import { dataSourceOptions, migrateUnderLock } from '../src/infrastructure/persistence/typeorm/data-source';

/**
 * The working tree's migrations on DATABASE_URL, as `npm run migrate` and every start run them
 * (migrateUnderLock, the service's pool options), in a process of its own so that its work never
 * delays the bench's clients. Prints one JSON line per message of TypeORM's logger (the
 * migrations' steps come as schema-build messages, silent in the service), each with the
 * milliseconds since the start, then `{"done": ms}`. Run by migrate-live.ts.
 */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const started = performance.now();
  const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const message = (text: string) => print({ at: performance.now() - started, message: text });
  const logger: Logger = {
    logQuery: () => {},
    logQueryError: () => {},
    logQuerySlow: () => {},
    logSchemaBuild: message,
    logMigration: message,
    log: () => {},
  };
  const dataSource = new DataSource({ ...dataSourceOptions({ kind: 'postgres', url }), logger });
  await dataSource.initialize();
  try {
    await migrateUnderLock(dataSource);
  } finally {
    await dataSource.destroy();
  }
  print({ done: performance.now() - started });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
