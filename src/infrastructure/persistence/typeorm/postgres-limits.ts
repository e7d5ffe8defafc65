/**
 * Time limits on PostgreSQL, chosen together so that every request is answered within 3 s
 * whatever the database does: refuse connections (stopped), or accept and never answer
 * (frozen, hung host, silent network). `npm run test:reliability` proves both. The call
 * deadline leaves a second to the 3 s for a busy event loop, and is far above what any
 * request of this API costs a healthy database.
 */
export const POSTGRES_LIMITS = {
  poolSize: 10,
  /** A whole storage call (a read, or a write's transaction); past it the request is a 503. */
  callDeadlineMs: 2_000,
  /** Opening a connection, or waiting for a free one in the pool. */
  connectMs: 1_500,
  /** The server cancels a statement that has run this long: nobody waits for it any more. */
  statementMs: 2_000,
  /**
   * No client-side query timeout (pg's query_timeout), on purpose: it gives up on a statement
   * but leaves the connection mid-transaction, with the rollback never sent, and the pool then
   * hands it to another request, whose COMMIT commits the abandoned half (the frozen-database
   * test caught exactly that). The call deadline answers the client instead, and the abandoned
   * transaction finishes whole, or not at all, when the server answers again or the connection
   * dies.
   *
   * The server ends a session left idle inside a transaction this long, so that a client that
   * hangs cannot hold row locks for ever.
   */
  idleInTransactionMs: 10_000,
  /** TCP keep-alive on idle pooled connections, so that a vanished server is noticed. */
  keepAliveInitialDelayMs: 10_000,
} as const;
