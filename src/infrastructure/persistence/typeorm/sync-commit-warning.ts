/**
 * PostgreSQL's warning when a commit's wait for the synchronous standby is cancelled
 * (statement_timeout, a cancel request, a terminated backend): "canceling wait for synchronous
 * replication due to user request", detail "The transaction has already committed locally, but
 * might not have been replicated to the standby." The COMMIT (or the single statement's implicit
 * commit) then reports success, yet the write may be lost in a failover to that standby, so it
 * must not be acknowledged. Matched on the server's English text: lc_messages must be English
 * (the default `C`); docs/OPERATIONS.md, "When the primary is gone (failover)".
 */
export function isSyncCommitCancelled(notice: { severity?: string; message?: string }): boolean {
  return notice.severity === 'WARNING' && /wait for synchronous replication/.test(notice.message ?? '');
}

/** node-postgres's client, as far as the commit watch needs it. */
export interface NoticeEmitter {
  on(event: 'notice', listener: (notice: { severity?: string; message?: string }) => void): unknown;
  off(event: 'notice', listener: (notice: { severity?: string; message?: string }) => void): unknown;
}

/** Whether a session's commit lost its synchronous-standby wait; stop() ends the listening. */
export interface SyncCommitWatch {
  cancelled(): boolean;
  stop(): void;
}

/** Listens, for one session, for the warning that a commit's synchronous-standby wait was cancelled. */
export function watchSyncCommit(client: NoticeEmitter): SyncCommitWatch {
  let seen = false;
  const listener = (notice: { severity?: string; message?: string }) => {
    if (isSyncCommitCancelled(notice)) seen = true;
  };
  client.on('notice', listener);
  return { cancelled: () => seen, stop: () => client.off('notice', listener) };
}
