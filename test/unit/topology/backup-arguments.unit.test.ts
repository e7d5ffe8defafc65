import { ArgumentError, backupTypeOf, restoreTargetOf } from '../../../scripts/topology/backup-arguments';

describe('backup and restore arguments (npm run topology -- backup | restore)', () => {
  const now = new Date('2026-11-26T18:00:00Z');
  const firstBackupEnd = new Date('2026-11-26T17:00:00Z');

  it('backs up full unless --type names full, diff or incr', () => {
    expect(backupTypeOf(undefined)).toBe('full');
    expect(backupTypeOf('incr')).toBe('incr');
    expect(() => backupTypeOf('weekly')).toThrow(new ArgumentError('--type weekly: not one of full, diff, incr'));
  });

  it('restores to latest, or to an ISO 8601 time with a zone between the first backup and now', () => {
    expect(restoreTargetOf('latest', now, firstBackupEnd)).toBe('latest');
    expect(restoreTargetOf('2026-11-26T17:30:00.250Z', now, firstBackupEnd)).toEqual(
      new Date('2026-11-26T17:30:00.250Z'),
    );
    expect(restoreTargetOf('2026-11-26T19:30:00+02:00', now, firstBackupEnd)).toEqual(new Date('2026-11-26T17:30:00Z'));
  });

  it.each([
    [undefined, 'restore needs --to'],
    ['yesterday', 'not an ISO 8601 time'],
    ['2026-11-26 17:30:00', 'not an ISO 8601 time'],
    ['2026-11-26T17:30:00', 'not an ISO 8601 time'],
    ['2026-02-30T17:30:00Z', 'not an ISO 8601 time'],
    ['2026-11-26T16:59:59Z', 'not after the end of the first backup (2026-11-26T17:00:00.000Z)'],
    ['2026-11-26T17:00:00Z', 'not after the end of the first backup'],
    ['2026-11-26T18:00:01Z', 'in the future'],
  ])('refuses --to %s: %s', (value, message) => {
    expect(() => restoreTargetOf(value, now, firstBackupEnd)).toThrow(ArgumentError);
    expect(() => restoreTargetOf(value, now, firstBackupEnd)).toThrow(message);
  });

  it('refuses any restore while the repository holds no backup', () => {
    expect(() => restoreTargetOf('latest', now, undefined)).toThrow('no backup in the repository');
  });
});
