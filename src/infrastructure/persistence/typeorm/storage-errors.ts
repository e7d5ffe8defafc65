import { DomainError, StorageUnavailableError } from '../../../domain';

/**
 * Driver errors a client may retry, by code: PostgreSQL SQLSTATE classes and codes, SQLite
 * result codes (extended codes start with their primary code, e.g. SQLITE_BUSY_SNAPSHOT), and
 * Node's socket errors. Anything else (a constraint the schema enforces, a syntax error) is
 * a defect, answered as an internal error and logged.
 */
const RETRYABLE: ReadonlyArray<{ code: RegExp; why: string }> = [
  { code: /^08/, why: 'PostgreSQL connection exception (class 08)' },
  { code: /^53/, why: 'PostgreSQL out of resources (class 53: too many connections 53300, disk full 53100)' },
  { code: /^57P0[1-4]$/, why: 'PostgreSQL shutting down, crashed, starting up (57P01 admin shutdown …)' },
  { code: /^57014$/, why: 'PostgreSQL statement cancelled (statement_timeout)' },
  { code: /^40001$|^40P01$/, why: 'PostgreSQL serialization failure or deadlock: the same request may succeed again' },
  { code: /^25006$/, why: 'PostgreSQL read-only transaction: the server is a standby (failover in progress)' },
  { code: /^25P03$/, why: 'PostgreSQL idle-in-transaction timeout ended the session' },
  { code: /^SQLITE_(BUSY|LOCKED)/, why: 'SQLite database locked by another connection' },
  { code: /^SQLITE_(FULL|IOERR|CANTOPEN|READONLY)/, why: 'SQLite file cannot be written or read' },
  {
    code: /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/,
    why: 'network',
  },
];

/** The code of a driver error (pg's SQLSTATE, better-sqlite3's result code, Node's errno code). */
export function storageErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Storage failures the client can retry become StorageUnavailableError (503); domain errors
 * pass through; anything else stays as it is, to be answered as an internal error. A failure
 * that carries no code but happened on a connection that broke is classified by the
 * repository, which knows the connection's state.
 */
export function translateStorageError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const code = storageErrorCode(error);
  if (code !== undefined && RETRYABLE.some((entry) => entry.code.test(code))) {
    return new StorageUnavailableError({ cause: error });
  }
  return error;
}

/**
 * The unique index on articles' slugs refused a write: another current article has the slug
 * (PostgreSQL unique_violation 23505 on articles_slug_key; SQLite's UNIQUE constraint on
 * articles.slug). Nothing of that statement, or of its transaction, was written.
 */
export function isSlugConflict(error: unknown): boolean {
  const code = storageErrorCode(error);
  if (code === '23505') return (error as { constraint?: unknown }).constraint === 'articles_slug_key';
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && String((error as Error).message).includes('articles.slug');
}

/** A foreign key refused a write: it referenced a row that does not exist. Nothing of that statement was written. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = storageErrorCode(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Another transaction inserted an article under the same id first (a deleted article restored twice at once). */
export function isArticleIdConflict(error: unknown): boolean {
  const code = storageErrorCode(error);
  if (code === '23505') return (error as { constraint?: unknown }).constraint === 'articles_pkey';
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
