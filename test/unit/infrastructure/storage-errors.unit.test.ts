import { StorageUnavailableError, UnknownReferenceError } from '../../../src/domain';
import { translateStorageError } from '../../../src/infrastructure/persistence/typeorm/storage-errors';
import { toHttpError } from '../../../src/interfaces/http/error-mapping';

/** A driver error as pg (SQLSTATE), better-sqlite3 (result code) or Node's sockets raise it. */
const driverError = (code: string) => Object.assign(new Error(`driver says ${code}`), { code });

/** What the client finally sees for a storage failure: the adapter's translation, then the HTTP table. */
const httpStatusFor = (error: unknown) => toHttpError(translateStorageError(error)).status;

describe('storage errors are classified by code, not by message', () => {
  it.each([
    ['08006', 'PostgreSQL connection failure'],
    ['08001', 'PostgreSQL cannot establish the connection'],
    ['57P01', 'PostgreSQL admin shutdown (pg_terminate_backend, fast shutdown)'],
    ['57P02', 'PostgreSQL crash shutdown'],
    ['57P03', 'PostgreSQL cannot connect now (starting up)'],
    ['53300', 'PostgreSQL too many connections'],
    ['53100', 'PostgreSQL disk full'],
    ['40001', 'PostgreSQL serialization failure'],
    ['40P01', 'PostgreSQL deadlock detected'],
    ['57014', 'PostgreSQL statement timeout'],
    ['25006', 'PostgreSQL read-only transaction (a standby)'],
    ['25P03', 'PostgreSQL idle-in-transaction session timeout'],
    ['SQLITE_BUSY', 'SQLite busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'SQLite busy (extended code)'],
    ['SQLITE_LOCKED', 'SQLite locked'],
    ['SQLITE_FULL', 'SQLite disk full'],
    ['SQLITE_READONLY', 'SQLite read-only file'],
    ['SQLITE_IOERR_WRITE', 'SQLite disk I/O error'],
    ['SQLITE_CANTOPEN', 'SQLite cannot open the file'],
    ['ECONNREFUSED', 'connection refused'],
    ['ECONNRESET', 'connection reset'],
    ['ETIMEDOUT', 'connection timed out'],
  ])('%s (%s) is a 503 the client may retry', (code) => {
    const error = driverError(code);
    const translated = translateStorageError(error);
    expect(translated).toBeInstanceOf(StorageUnavailableError);
    expect((translated as Error).cause).toBe(error);
    expect(httpStatusFor(error)).toBe(503);
  });

  it.each([
    ['23505', 'PostgreSQL unique violation: the adapter avoids it by design, so one is a defect'],
    ['23503', 'PostgreSQL foreign key violation'],
    ['42601', 'PostgreSQL syntax error'],
    ['42P01', 'PostgreSQL undefined table (schema not migrated)'],
    ['SQLITE_CONSTRAINT_UNIQUE', 'SQLite unique violation'],
    ['SQLITE_ERROR', 'SQLite SQL error'],
    ['SQLITE_CORRUPT', 'SQLite corrupt file: retrying does not help'],
  ])('%s (%s) stays as it is: a 500, logged', (code) => {
    const error = driverError(code);
    expect(translateStorageError(error)).toBe(error);
    expect(httpStatusFor(error)).toBe(500);
  });

  it('does not read messages: a timeout-sounding message without a code is not retryable', () => {
    const error = new Error('Connection terminated due to connection timeout');
    expect(translateStorageError(error)).toBe(error);
  });

  it('passes domain errors through', () => {
    const error = new UnknownReferenceError('tag', 'x');
    expect(translateStorageError(error)).toBe(error);
    expect(httpStatusFor(error)).toBe(400);
  });
});
