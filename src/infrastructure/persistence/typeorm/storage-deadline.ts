import type { EventEmitter } from 'node:events';
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
export async function withinDeadline<T>(
  work: Promise<T>,
  deadlineMs: number,
  onExpired?: () => void,
  /** When given, each of its 'data' events starts `deadlineMs` again (withinIdleDeadline). */
  progress?: EventEmitter,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let expire: (error: Error) => void = () => {};
  const expired = new Promise<never>((_, reject) => {
    expire = reject;
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      onExpired?.();
      expire(new StorageUnavailableError());
    }, deadlineMs);
  };
  arm();
  progress?.on('data', arm);
  // The work's rejection after the deadline has nobody left to handle it.
  work.catch(() => {});
  try {
    return await Promise.race([work, expired]);
  } finally {
    progress?.off('data', arm);
    clearTimeout(timer);
  }
}

/**
 * Like withinDeadline, but the time runs from the last sign of life: each 'data' event of
 * `progress` (the connection's socket) starts `deadlineMs` again. A database that stops
 * answering is still given up on after `deadlineMs` of silence, while a long answer that keeps
 * arriving (a chunk of rows over a slow link, in TCP slow start) is let finish.
 */
export function withinIdleDeadline<T>(
  work: Promise<T>,
  deadlineMs: number,
  progress: EventEmitter | undefined,
): Promise<T> {
  return withinDeadline(work, deadlineMs, undefined, progress);
}
