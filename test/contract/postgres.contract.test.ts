import { openSqlSubject } from '../support/sql-subject';
import { createPostgresDatabase } from '../support/test-databases';
import { articleRepositoryContract } from './article-repository';

articleRepositoryContract('TypeORM on PostgreSQL', async () => {
  const database = await createPostgresDatabase();
  return openSqlSubject({ kind: 'postgres', url: database.url }, database.drop);
});
