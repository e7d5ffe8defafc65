import { StorageUnavailableError } from '../../../../domain';
import { REPLICA_LAG_STATEMENT, type ReadNode, type ReplicaReadPolicy } from '../replica-read-policy';
import type { SqlConnection } from '../sql-connection';
import { type ReadAttempt, ReadAttempts } from './read-attempts';
import { PRIMARY_READ, REPLICA_READ, type SqlSessions } from './sql-sessions';

/** A replica's lag was measured past the limit: the read goes to the primary instead. */
class ReplicaTooFarBehind extends Error {}

/** What a routed read answered, and which node served it. */
export interface RoutedRead<T> {
  value: T;
  node: ReadNode;
}

/**
 * Sends reads to a replica when they are configured, answer and keep up; else, and after a
 * replica fails, to the primary (reads are safe to repeat). Without replicas every read goes
 * to the primary. Which node a read tries next, and when, is read-attempts.ts's to say.
 */
export class ReplicaRouting {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly replicas: ReplicaReadPolicy | null,
  ) {}

  async read<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    return (await this.readWithNode(work)).value;
  }

  /** The read on the first node that serves it, tried in read-attempts.ts's order. */
  readWithNode<T>(work: (connection: SqlConnection) => Promise<T>): Promise<RoutedRead<T>> {
    return this.route(work, new ReadAttempts(this.replicas));
  }

  /**
   * A read of something written moments ago (an article, a slug, revisions), which a replica may
   * not have yet: a replica's null is asked of the primary again. A primary that cannot be asked
   * then makes it a 503, never a wrong null.
   */
  async readYourWrites<T>(work: (connection: SqlConnection) => Promise<T | null>): Promise<T | null> {
    const attempts = new ReadAttempts(this.replicas);
    const first = await this.route(work, attempts);
    if (first.value !== null || first.node === 'primary') return first.value;
    attempts.missedOn('replica', 'behind');
    return (await this.route(work, attempts)).value;
  }

  /** Tries the nodes `attempts` names in turn; the last failure when none served. */
  private async route<T>(
    work: (connection: SqlConnection) => Promise<T>,
    attempts: ReadAttempts,
  ): Promise<RoutedRead<T>> {
    let failure: unknown;
    for (let attempt = await attempts.next(); attempt !== null; attempt = await attempts.next()) {
      try {
        const value = await this.readOn(attempt, work);
        this.replicas?.served(attempt.node);
        return { value, node: attempt.node };
      } catch (error) {
        if (error instanceof ReplicaTooFarBehind) attempts.missedOn(attempt.node, 'behind');
        else if (error instanceof StorageUnavailableError) {
          attempts.missedOn(attempt.node, 'failed');
          failure = error;
        } else throw error;
      }
    }
    // No attempt was left for the primary (a replica's late null): a 503, never a wrong null.
    throw failure ?? new StorageUnavailableError();
  }

  /** One attempt; on a replica, its lag is measured first when due. */
  private readOn<T>(attempt: ReadAttempt, work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    const replicas = this.replicas;
    if (attempt.node === 'primary' || replicas === null)
      return this.sessions.inSession(PRIMARY_READ, work, attempt.deadlineMs);
    return this.sessions.inSession(
      REPLICA_READ,
      async (connection) => {
        if (replicas.lagIsDue()) {
          const [row] = await connection.query<{ lagMs: number }>(REPLICA_LAG_STATEMENT, []);
          if (!replicas.acceptLag(Number(row?.lagMs))) throw new ReplicaTooFarBehind();
        }
        return work(connection);
      },
      attempt.deadlineMs,
    );
  }
}
