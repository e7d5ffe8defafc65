import { setTimeout as sleep } from 'node:timers/promises';
import { POSTGRES_LIMITS } from '../postgres-limits';
import type { ReadNode, ReplicaReadPolicy } from '../replica-read-policy';

/** A read on a replica gets this long, so that a primary read after it still answers within 3 s. */
export const REPLICA_READ_DEADLINE_MS = 1_000;
/**
 * A read whose primary failed this soon gets a last try on a replica: with the replica's own
 * deadline it still ends within the call deadline (2 s).
 */
const LAST_REPLICA_TRY_WITHIN_MS = POSTGRES_LIMITS.callDeadlineMs - REPLICA_READ_DEADLINE_MS;
/**
 * A read the primary failed, and no replica served, asks the primary again after this pause (and
 * after each failure again, while the read still fits in ANSWER_WITHIN_MS):
 * in a switchover every path can fail for an instant (PgBouncer refuses a pool's clients for its
 * server_login_retry, 0.5 s in the topology, after one failed login), and a read is safe to repeat.
 */
export const PRIMARY_AGAIN_AFTER_MS = 600;
/** The least time a primary try after a pause gets: a healthy node answers a read in milliseconds. */
const PRIMARY_AGAIN_AT_LEAST_MS = 400;
/**
 * The shortest pause before the primary again: the last try of a read short of time comes after
 * less than PRIMARY_AGAIN_AFTER_MS rather than not at all (two roll-nodes reads gave up at 1.7 s
 * of their 2.5 s), but not so soon that the same refusal answers it.
 */
const PRIMARY_AGAIN_AFTER_AT_LEAST_MS = 200;
/**
 * How late a deadline's timer may fire on a busy event loop: an attempt that must end before an
 * instant ends this much earlier (the contract test's read missed its replica try by 2 ms).
 */
const DEADLINE_TIMER_LATE_MS = 100;
/** However many nodes a read tries, it ends within this: the 3 s answer less the event loop's share. */
const ANSWER_WITHIN_MS = 2_500;

/** Whether a read may start on a replica: none configured, skipped a while (one failed), or in use. */
export type ReplicaChoice = 'none' | 'skipped' | 'use';

function replicaChoice(policy: ReplicaReadPolicy | null): ReplicaChoice {
  if (policy === null) return 'none';
  return policy.useReplica() ? 'use' : 'skipped';
}

/**
 * An attempt that did not serve the read: its node `failed` (refused, shut, past its deadline),
 * or a replica was `behind` (lagged past the limit, or lacked a row just written), which another
 * replica try would not mend.
 */
export interface MissedAttempt {
  node: ReadNode;
  why: 'failed' | 'behind';
}

/** Where a read goes next: after a pause, with a deadline of its own. */
export interface ReadAttempt {
  node: ReadNode;
  afterMs: number;
  deadlineMs: number;
}

/**
 * The one place that decides where a read goes, for single reads and the whole list alike: a
 * replica first when one may serve, else the primary; the primary after a replica misses; after
 * the primary fails, soon enough, a last replica try (during a switchover or failover the replicas
 * skipped after one failed read are often the only nodes that answer), which is why a first
 * primary attempt that try may follow ends in time for it (firstOnPrimary); then the primary again
 * after a pause, as long as it fits. Null: the read is answered with its last failure.
 */
export function nextReadAttempt(
  missed: readonly MissedAttempt[],
  elapsedMs: number,
  replicas: ReplicaChoice,
): ReadAttempt | null {
  // Every read asks this first: answered without counting anything.
  if (missed.length === 0 && replicas === 'use') return onReplica();
  const primaryMisses = missed.filter((attempt) => attempt.node === 'primary').length;
  const replicaMisses = missed.length - primaryMisses;
  const replicaMayServe =
    replicas !== 'none' && replicaMisses < 2 && !missed.some((attempt) => attempt.why === 'behind');
  if (primaryMisses === 0) return firstOnPrimary(elapsedMs, replicaMayServe);
  if (replicas === 'none') return null;
  if (
    replicaMayServe &&
    primaryMisses === 1 &&
    missed.at(-1)?.node === 'primary' &&
    elapsedMs <= LAST_REPLICA_TRY_WITHIN_MS
  )
    return onReplica();
  // Again and again while it fits: PgBouncer's login retry can refuse the primary's entry for
  // seconds in a switchover (2.9 s in one roll-nodes run), each retry failing again. The last
  // try's pause shrinks so that it still gets its least time within the read's.
  const leftMs = ANSWER_WITHIN_MS - elapsedMs;
  const afterMs = Math.min(PRIMARY_AGAIN_AFTER_MS, leftMs - PRIMARY_AGAIN_AT_LEAST_MS);
  if (afterMs < PRIMARY_AGAIN_AFTER_AT_LEAST_MS) return null;
  return { node: 'primary', afterMs, deadlineMs: leftMs - afterMs };
}

const onReplica = (): ReadAttempt => ({ node: 'replica', afterMs: 0, deadlineMs: REPLICA_READ_DEADLINE_MS });

/**
 * The read's first primary attempt. When a replica may still serve it, the attempt ends in time
 * for the replica's last try: in a switchover PgBouncer holds a client waiting for the new
 * primary's login, silently, and a read that waited there its whole call deadline had no time
 * left for the replica entry, which was answering (a roll-nodes read answered 503 so).
 * Otherwise, and when less than PRIMARY_AGAIN_AT_LEAST_MS would be left before that try, the
 * whole call deadline.
 */
function firstOnPrimary(elapsedMs: number, replicaMayServe: boolean): ReadAttempt {
  const untilLastReplicaTryMs = LAST_REPLICA_TRY_WITHIN_MS - DEADLINE_TIMER_LATE_MS - elapsedMs;
  const deadlineMs =
    replicaMayServe && untilLastReplicaTryMs >= PRIMARY_AGAIN_AT_LEAST_MS
      ? untilLastReplicaTryMs
      : POSTGRES_LIMITS.callDeadlineMs;
  return { node: 'primary', afterMs: 0, deadlineMs };
}

/**
 * One read's attempts, as the adapters run them: the next one after its pause, and each miss
 * recorded (a replica that failed has the replicas skipped a while). Single reads
 * (replica-routing.ts) and the whole list (cursor-stream.ts) share it.
 */
export class ReadAttempts {
  private readonly began = performance.now();
  private readonly missed: MissedAttempt[] = [];
  private readonly replicas: ReplicaChoice;

  constructor(private readonly policy: ReplicaReadPolicy | null) {
    this.replicas = replicaChoice(policy);
  }

  /** The next attempt, once its pause is over; null when none is left. */
  async next(): Promise<ReadAttempt | null> {
    const attempt = nextReadAttempt(this.missed, performance.now() - this.began, this.replicas);
    if (attempt !== null && attempt.afterMs > 0) await sleep(attempt.afterMs);
    return attempt;
  }

  missedOn(node: ReadNode, why: MissedAttempt['why']): void {
    this.missed.push({ node, why });
    if (node === 'replica' && why === 'failed') this.policy?.failed();
  }
}
