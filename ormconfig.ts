import { loadConfig } from './src/infrastructure/config/config';
import { createDataSource } from './src/infrastructure/persistence/typeorm/data-source';

/**
 * The DataSource of the TypeORM CLI, from the same configuration code the service uses
 * (DATABASE_URL). Build first, then e.g. `npx typeorm migration:show -d dist/ormconfig.js`.
 */
const { database } = loadConfig(process.env);
if (database.kind === 'memory') throw new Error('DATABASE_URL=memory: has no schema for the TypeORM CLI');

export default createDataSource(database);
