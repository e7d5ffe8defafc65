import { openSqlSubject } from '../support/sql-subject';
import { createSqliteFile } from '../support/test-databases';
import { articleRepositoryContract } from './article-repository';

articleRepositoryContract('TypeORM on SQLite (better-sqlite3)', async () => {
  const file = createSqliteFile();
  return openSqlSubject({ kind: 'sqlite', path: file.path }, file.remove);
});
