import { openSqlSubject, openSqlWebhookSubject } from '../support/sql-subject';
import { createPostgresDatabase } from '../support/test-databases';
import { articleRepositoryContract } from './article-repository';
import { webhookRepositoryContract } from './webhook-repository';

articleRepositoryContract('TypeORM on PostgreSQL', async () => {
  const database = await createPostgresDatabase();
  return openSqlSubject({ kind: 'postgres', url: database.url }, database.drop);
});

webhookRepositoryContract('TypeORM on PostgreSQL', async (writeEvents) => {
  const database = await createPostgresDatabase();
  return openSqlWebhookSubject({ kind: 'postgres', url: database.url }, database.drop, writeEvents);
});
