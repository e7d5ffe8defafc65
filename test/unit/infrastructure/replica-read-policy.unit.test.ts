import { ReplicaReadPolicy } from '../../../src/infrastructure/persistence/typeorm/replica-read-policy';

describe('ReplicaReadPolicy', () => {
  it('measures lag at most once per recheck period', () => {
    const reads = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 500 });
    expect(reads.lagIsDue(10_000)).toBe(true);
    expect(reads.acceptLag(20, 10_000)).toBe(true);
    expect(reads.lagIsDue(10_499)).toBe(false);
    expect(reads.lagIsDue(10_500)).toBe(true);
  });

  it('skips the replicas for a recheck period when they lag past the limit, then tries again', () => {
    const reads = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 500 });
    expect(reads.acceptLag(1_000, 10_000)).toBe(true);
    expect(reads.acceptLag(1_001, 10_000)).toBe(false);
    expect(reads.useReplica(10_499)).toBe(false);
    expect(reads.useReplica(10_500)).toBe(true);
  });

  it('skips the replicas after a failure and measures their lag again before trusting them', () => {
    const reads = new ReplicaReadPolicy({ maxLagMs: 1_000, recheckMs: 500 });
    reads.acceptLag(0, 10_000);
    reads.failed(10_100);
    expect(reads.useReplica(10_599)).toBe(false);
    expect(reads.useReplica(10_600)).toBe(true);
    expect(reads.lagIsDue(10_600)).toBe(true);
  });

  it('exposes the lag and the reads by node as metrics', async () => {
    const reads = new ReplicaReadPolicy({ maxLagMs: 1_000 });
    reads.acceptLag(42);
    reads.served('replica');
    reads.served('primary');
    reads.served('replica');
    const text = await reads.registry.metrics();
    expect(text).toContain('db_replica_lag_milliseconds 42');
    expect(text).toContain('db_reads_total{node="replica"} 2');
    expect(text).toContain('db_reads_total{node="primary"} 1');
  });
});
