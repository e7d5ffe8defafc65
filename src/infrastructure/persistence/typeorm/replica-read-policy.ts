import { Counter, Gauge, Registry } from 'prom-client';
import type { SqlStatement } from './sql-statement';

/**
 * How far a PostgreSQL standby's data is behind, in milliseconds: 0 on a primary and on a
 * standby that has replayed everything it received; else the age of the last transaction it
 * replayed. (A standby cut off from its primary also reads 0: it cannot know what it missed.)
 */
export const REPLICA_LAG_STATEMENT: SqlStatement = {
  name: 'replica_lag',
  text: `SELECT (CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
          ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000, 0) END)::float8
          AS "lagMs"`,
};

export interface ReplicaReadPolicyOptions {
  /** A replica further behind than this is skipped. */
  maxLagMs: number;
  /** How often a replica's lag is measured, and how long a failing or lagging replica is skipped. */
  recheckMs?: number;
}

export type ReadNode = 'primary' | 'replica';

/**
 * Whether reads go to a replica now, decided from what the reads themselves observe: a replica
 * that failed or lagged more than `maxLagMs` is skipped for `recheckMs`, reads then go to the
 * primary, and the next read after that tries a replica again. TypeORM picks which replica
 * serves a read, so a failing replica sends every read to the primary until it recovers.
 */
export class ReplicaReadPolicy {
  readonly registry = new Registry();
  private readonly lag = new Gauge({
    name: 'db_replica_lag_milliseconds',
    help: 'How far behind the primary the last measured read replica was',
    registers: [this.registry],
  });
  private readonly reads = new Counter({
    name: 'db_reads_total',
    help: 'Storage reads by the node that served them',
    labelNames: ['node'] as const,
    registers: [this.registry],
  });
  private readonly recheckMs: number;
  private skipUntil = 0;
  private lagMeasuredAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ReplicaReadPolicyOptions) {
    this.recheckMs = options.recheckMs ?? 1_000;
  }

  /** Whether the next read may go to a replica. */
  useReplica(now = Date.now()): boolean {
    return now >= this.skipUntil;
  }

  /** Whether the replica a read got should first say how far behind it is. */
  lagIsDue(now = Date.now()): boolean {
    return now - this.lagMeasuredAt >= this.recheckMs;
  }

  /** Records a measured lag; false (and the replicas are skipped a while) when it is too far behind. */
  acceptLag(lagMs: number, now = Date.now()): boolean {
    this.lag.set(lagMs);
    this.lagMeasuredAt = now;
    if (lagMs <= this.options.maxLagMs) return true;
    this.skipUntil = now + this.recheckMs;
    return false;
  }

  /** A replica failed to connect or to answer: the replicas are skipped a while. */
  failed(now = Date.now()): void {
    this.skipUntil = now + this.recheckMs;
    // Measure again before trusting a replica that comes back.
    this.lagMeasuredAt = Number.NEGATIVE_INFINITY;
  }

  served(node: ReadNode): void {
    this.reads.inc({ node });
  }
}
