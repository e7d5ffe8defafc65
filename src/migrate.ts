import { ConfigError, describeDatabase, loadConfig } from './infrastructure/config/config';
import { openDataSource } from './infrastructure/persistence/typeorm/data-source';

/** `npm run migrate`: brings the configured database to the current schema version, then exits. */
async function migrate(): Promise<void> {
  const { database } = loadConfig(process.env);
  if (database.kind === 'memory') {
    console.log('DATABASE_URL=memory: has no schema to migrate');
    return;
  }
  const dataSource = await openDataSource(database);
  const applied = await dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
  console.log(`${describeDatabase(database)} is at the current schema (${applied.length} migrations applied)`);
  await dataSource.destroy();
}

migrate().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
