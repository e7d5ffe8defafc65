import { StorageUnavailableError } from '../../../domain';

/**
 * Answers the work's result, or StorageUnavailableError once `deadlineMs` have passed, whichever
 * comes first: a database that stops answering without closing its connections (a hung host,
 * a silent network) would otherwise hold the request until it answers again.
 *
 * The work is not cancelled: it goes on on its connection, and ends when the server answers
 * again or the connection dies; its late outcome is dropped. A write that times out here may
 * still commit, entirely or not at all (each write is one transaction), which a 503 allows:
 * the client cannot tell, as with any lost answer.
 */
export async function withinDeadline<T>(work: Promise<T>, deadlineMs: number, onExpired?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpired?.();
      reject(new StorageUnavailableError());
    }, deadlineMs);
  });
  // The work's rejection after the deadline has nobody left to handle it.
  work.catch(() => {});
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
