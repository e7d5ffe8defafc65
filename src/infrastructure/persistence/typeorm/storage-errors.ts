import { DomainError, StorageUnavailableError } from '../../../domain';

/** Network errors of the driver, and PostgreSQL classes 08 (connection), 53 (resources), 57P (shutdown). */
const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|08...|53...|57P0.|57014|SQLITE_BUSY.*|SQLITE_LOCKED.*|SQLITE_CANTOPEN.*|SQLITE_IOERR.*|SQLITE_FULL)$/;
const UNAVAILABLE_MESSAGES =
  /timeout|Connection terminated|not (yet )?established|Client has encountered a connection error|Cannot use a pool after calling end/i;

/**
 * Storage failures the client can retry become StorageUnavailableError; domain errors pass
 * through; anything else stays as it is, to be answered as an internal error.
 */
export function translateStorageError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const driverError = (error as { driverError?: unknown })?.driverError ?? error;
  const code = String((driverError as { code?: unknown })?.code ?? '');
  const message = String((driverError as { message?: unknown })?.message ?? '');
  if (UNAVAILABLE_CODES.test(code) || UNAVAILABLE_MESSAGES.test(message)) {
    return new StorageUnavailableError({ cause: error });
  }
  return error;
}
