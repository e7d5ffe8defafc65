import type { BackupType } from './pgbackrest';

/** A wrong argument of `backup` or `restore`: one line for the operator, exit 2, nothing changed. */
export class ArgumentError extends Error {}

const BACKUP_TYPES: readonly BackupType[] = ['full', 'diff', 'incr'];

/** `--type` of `backup`: full unless told. */
export function backupTypeOf(value: string | undefined): BackupType {
  if (value === undefined) return 'full';
  if (!(BACKUP_TYPES as readonly string[]).includes(value)) {
    throw new ArgumentError(`--type ${value}: not one of ${BACKUP_TYPES.join(', ')}`);
  }
  return value as BackupType;
}

/** A date, a time to the second or finer, and a zone (Z or ±hh:mm): a time no reader can take for another. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `--to` of `restore`: `latest` (the end of the archived WAL) or an ISO 8601 time after the end
 * of the first backup (nothing before it can be restored) and not in the future.
 */
export function restoreTargetOf(
  value: string | undefined,
  now: Date,
  firstBackupEnd: Date | undefined,
): Date | 'latest' {
  if (value === undefined) throw new ArgumentError('restore needs --to <ISO 8601 time | latest>');
  if (firstBackupEnd === undefined) throw new ArgumentError('no backup in the repository to restore from');
  if (value === 'latest') return 'latest';
  const time = new Date(value);
  if (!ISO_8601.test(value) || Number.isNaN(time.getTime()) || !isCalendarTime(value)) {
    throw new ArgumentError(`--to ${value}: not an ISO 8601 time with a zone (e.g. 2026-11-26T17:30:00Z) nor latest`);
  }
  if (time > now) throw new ArgumentError(`--to ${value}: in the future (now ${now.toISOString()})`);
  if (time <= firstBackupEnd) {
    throw new ArgumentError(`--to ${value}: not after the end of the first backup (${firstBackupEnd.toISOString()})`);
  }
  return time;
}

/** Whether the date and time fields name a real instant (JavaScript reads February 30 as March 2). */
function isCalendarTime(value: string): boolean {
  const [year, month, day, hour, minute, second] = value.split(/[-T:.Z+]/).map(Number) as number[];
  const utc = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day, hour, minute, second));
  return (
    utc.getUTCMonth() === (month ?? 0) - 1 &&
    utc.getUTCDate() === day &&
    utc.getUTCHours() === hour &&
    utc.getUTCMinutes() === minute
  );
}
