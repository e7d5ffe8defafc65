import { openSqlSubject, openSqlWebhookSubject } from '../support/sql-subject';
import { createSqliteFile } from '../support/test-databases';
import { articleRepositoryContract } from './article-repository';
import { webhookRepositoryContract } from './webhook-repository';

articleRepositoryContract('TypeORM on SQLite (better-sqlite3)', async () => {
  const file = createSqliteFile();
  return openSqlSubject({ kind: 'sqlite', path: file.path }, file.remove);
});

webhookRepositoryContract('TypeORM on SQLite (better-sqlite3)', async (writeEvents) => {
  const file = createSqliteFile();
  return openSqlWebhookSubject({ kind: 'sqlite', path: file.path }, file.remove, writeEvents);
});
