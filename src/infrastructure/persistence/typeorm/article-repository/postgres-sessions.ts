import type { PoolClient } from 'pg';
import { PgConnection } from '../sql-connection';
import { withinDeadline } from '../storage-deadline';
import { type NoticeEmitter, watchSyncCommit } from '../sync-commit-warning';
import type { SessionOpening } from './sql-sessions';

/**
 * PostgreSQL: sessions run concurrently on the pool, each raced against its deadline (a hung
 * server would otherwise hold the request), and each watched for a commit whose synchronous
 * standby wait was cancelled. `prepared`: statements are named prepared statements.
 */
export function postgresSessions(prepared: boolean): SessionOpening {
  return {
    connectionOf: (native) => new PgConnection(native as PoolClient, prepared),
    watchCommit: (native) => watchSyncCommit(native as NoticeEmitter),
    schedule: (session, deadlineMs, onDeadline) => withinDeadline(session(), deadlineMs, onDeadline),
  };
}
