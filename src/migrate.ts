// First: a Node.js line the service does not run on ends here, in one line.
import './process/refuse-unsupported-node';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { backoffDelays } from './application/backoff';
import { ConfigError, describeDatabase, loadConfig, type SqlDatabaseConfig } from './infrastructure/config/config';
import { CONNECT_BACKOFF } from './infrastructure/persistence/data-source-connector';
import { openDataSource } from './infrastructure/persistence/typeorm/data-source';
import { describeSqliteBindingFailure } from './infrastructure/persistence/typeorm/sqlite-binding-failure';

/** How long `npm run migrate` waits for a database that is not there yet, as in a deploy that starts both. */
const WAIT_FOR_DATABASE_MS = 60_000;

/**
 * `npm run migrate`: brings the configured database to the current schema version, then exits.
 * Runs under the same advisory lock as the service's own migration at start, so it may run
 * beside starting instances. A database that does not answer is retried with the service's
 * back-off for up to 60 s, then the command exits 1 naming the cause.
 */
async function migrate(): Promise<void> {
  const { database } = loadConfig(process.env);
  if (database.kind === 'memory') {
    console.log('DATABASE_URL=memory: has no schema to migrate');
    return;
  }
  const dataSource = await openWithin(database, WAIT_FOR_DATABASE_MS);
  const applied = await dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
  console.log(`${describeDatabase(database)} is at the current schema (${applied.length} migrations applied)`);
  await dataSource.destroy();
}

async function openWithin(database: SqlDatabaseConfig, waitMs: number): Promise<DataSource> {
  const giveUpAt = Date.now() + waitMs;
  const delays = backoffDelays(CONNECT_BACKOFF);
  for (;;) {
    try {
      return await openDataSource(database);
    } catch (error) {
      const delayMs = delays.next().value;
      if (database.kind !== 'postgres' || Date.now() + delayMs > giveUpAt) throw error;
      console.error(`${describeDatabase(database)} not reachable yet (${describe(error)}); retrying in ${delayMs} ms`);
      await sleep(delayMs);
    }
  }
}

const describe = (error: unknown) =>
  describeSqliteBindingFailure(error) ?? (error instanceof Error ? error.message : String(error));

migrate().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? `Configuration error: ${error.message}` : `Migration failed: ${describe(error)}`,
  );
  process.exit(1);
});
