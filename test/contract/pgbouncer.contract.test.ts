import { startPgBouncer } from '../support/pgbouncer';
import { openSqlSubject } from '../support/sql-subject';
import { createPostgresDatabase } from '../support/test-databases';
import { articleRepositoryContract } from './article-repository';

// The adapter as the topology runs it: through PgBouncer in transaction mode, which hands each
// transaction to a server connection in turn, so no named prepared statements (PG_PREPARED_STATEMENTS=false).
articleRepositoryContract('TypeORM on PostgreSQL through PgBouncer (transaction pooling)', async () => {
  const database = await createPostgresDatabase();
  const pgbouncer = await startPgBouncer(database.url);
  return openSqlSubject({ kind: 'postgres', url: pgbouncer.url, preparedStatements: false }, async () => {
    await pgbouncer.stop();
    await database.drop();
  });
});
