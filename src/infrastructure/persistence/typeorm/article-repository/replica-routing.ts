import { setTimeout as sleep } from 'node:timers/promises';
import { StorageUnavailableError } from '../../../../domain';
import { POSTGRES_LIMITS } from '../postgres-limits';
import { REPLICA_LAG_STATEMENT, type ReadNode, type ReplicaReadPolicy } from '../replica-read-policy';
import type { SqlConnection } from '../sql-connection';
import { PRIMARY_READ, REPLICA_READ, type SqlSessions } from './sql-sessions';

/** A read on a replica gets this long, so that a primary read after it still answers within 3 s. */
export const REPLICA_READ_DEADLINE_MS = 1_000;
/**
 * A read whose primary failed this soon gets a last try on a replica: with the replica's own
 * deadline it still ends within the call deadline (2 s).
 */
export const LAST_REPLICA_TRY_WITHIN_MS = POSTGRES_LIMITS.callDeadlineMs - REPLICA_READ_DEADLINE_MS;

/**
 * When both the primary and the last replica try failed at once, the primary is asked once more
 * after this pause: in a switchover every path can fail for an instant (PgBouncer refuses a pool's
 * clients for its server_login_retry, 0.5 s in the topology, after one failed login), and a read
 * is safe to repeat. Only while the whole read still ends within ANSWER_WITHIN_MS.
 */
export const PRIMARY_AGAIN_AFTER_MS = 600;
const ANSWER_WITHIN_MS = 2_500;

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
 * to the primary.
 */
export class ReplicaRouting {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly replicas: ReplicaReadPolicy | null,
  ) {}

  async read<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    return (await this.readWithNode(work)).value;
  }

  /**
   * A read on a replica when one may serve, else on the primary. When the primary fails, and
   * the read still has time for it, a replica gets a last try: during a switchover or failover
   * the replicas skipped after one failed read (a session shut as its node left the replica
   * set) are often the only nodes that can answer.
   */
  async readWithNode<T>(work: (connection: SqlConnection) => Promise<T>): Promise<RoutedRead<T>> {
    const replicas = this.replicas;
    const began = performance.now();
    if (replicas?.useReplica()) {
      const served = await this.readOnReplica(replicas, work);
      if (served) return served;
    }
    try {
      const value = await this.sessions.inSession(PRIMARY_READ, work);
      replicas?.served('primary');
      return { value, node: 'primary' };
    } catch (error) {
      const timeLeft = performance.now() - began <= LAST_REPLICA_TRY_WITHIN_MS;
      if (!replicas || !(error instanceof StorageUnavailableError) || !timeLeft) throw error;
      const served = await this.readOnReplica(replicas, work);
      if (served) return served;
      return this.primaryAgain(work, began, error);
    }
  }

  /**
   * A read of something written moments ago (an article, a slug, revisions), which a replica may
   * not have yet: a replica's null is asked of the primary again. A primary that cannot be asked
   * then makes it a 503, never a wrong null; one that fails for a switchover's instant is asked
   * once more after the pause, as readWithNode does.
   */
  async readYourWrites<T>(work: (connection: SqlConnection) => Promise<T | null>): Promise<T | null> {
    const began = performance.now();
    const { value, node } = await this.readWithNode(work);
    if (value !== null || node === 'primary') return value;
    try {
      return await this.sessions.inSession(PRIMARY_READ, work);
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
      return (await this.primaryAgain(work, began, error)).value;
    }
  }

  /** The primary once more after PRIMARY_AGAIN_AFTER_MS, within what is left of ANSWER_WITHIN_MS; else `failure`. */
  private async primaryAgain<T>(
    work: (connection: SqlConnection) => Promise<T>,
    began: number,
    failure: unknown,
  ): Promise<RoutedRead<T>> {
    const deadlineMs = ANSWER_WITHIN_MS - (performance.now() - began) - PRIMARY_AGAIN_AFTER_MS;
    if (deadlineMs < REPLICA_READ_DEADLINE_MS) throw failure;
    await sleep(PRIMARY_AGAIN_AFTER_MS);
    const value = await this.sessions.inSession(PRIMARY_READ, work, deadlineMs);
    this.replicas?.served('primary');
    return { value, node: 'primary' };
  }

  /** The read on a replica; null when it failed or lagged too far (then replicas are skipped a while). */
  private async readOnReplica<T>(
    replicas: ReplicaReadPolicy,
    work: (connection: SqlConnection) => Promise<T>,
  ): Promise<RoutedRead<T> | null> {
    try {
      const value = await this.sessions.inSession(
        REPLICA_READ,
        async (connection) => {
          if (replicas.lagIsDue()) {
            const [row] = await connection.query<{ lagMs: number }>(REPLICA_LAG_STATEMENT, []);
            if (!replicas.acceptLag(Number(row?.lagMs))) throw new ReplicaTooFarBehind();
          }
          return work(connection);
        },
        REPLICA_READ_DEADLINE_MS,
      );
      replicas.served('replica');
      return { value, node: 'replica' };
    } catch (error) {
      if (!(error instanceof ReplicaTooFarBehind || error instanceof StorageUnavailableError)) throw error;
      if (error instanceof StorageUnavailableError) replicas.failed();
      return null;
    }
  }
}
