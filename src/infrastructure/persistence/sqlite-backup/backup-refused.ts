import type { DatabaseConfig } from '../../config/config';

/**
 * A backup refused before anything was written: the reason is one line for the operator, and
 * the command exits 2. A backup that fails once it has begun is any other error (exit 1).
 */
export class BackupRefusedError extends Error {}

/** The SQLite file the configured service stores its data in, or a refusal saying why there is none to copy. */
export function sqliteFileOf(database: DatabaseConfig): string {
  switch (database.kind) {
    case 'postgres':
      throw new BackupRefusedError(
        "DATABASE_URL names PostgreSQL: back it up with the topology's pgBackRest or with pg_dump; " +
          'this command copies the embedded SQLite file only',
      );
    case 'memory':
      throw new BackupRefusedError('DATABASE_URL=memory: keeps nothing on disk to back up');
    case 'sqlite':
      if (database.path === ':memory:') {
        throw new BackupRefusedError('DATABASE_URL names an in-memory SQLite database: nothing on disk to back up');
      }
      return database.path;
  }
}
