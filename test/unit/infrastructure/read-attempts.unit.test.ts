import {
  type MissedAttempt,
  nextReadAttempt,
  PRIMARY_AGAIN_AFTER_MS,
  type ReadAttempt,
  type ReplicaChoice,
} from '../../../src/infrastructure/persistence/typeorm/article-repository/read-attempts';
import { POSTGRES_LIMITS } from '../../../src/infrastructure/persistence/typeorm/postgres-limits';

const failed = (node: MissedAttempt['node']): MissedAttempt => ({ node, why: 'failed' });
const replicaNow = { node: 'replica', afterMs: 0, deadlineMs: 1_000 };
const primaryNow = { node: 'primary', afterMs: 0, deadlineMs: POSTGRES_LIMITS.callDeadlineMs };

describe('where a read goes next', () => {
  it('without replicas: the primary, once', () => {
    expect(nextReadAttempt([], 0, 'none')).toEqual(primaryNow);
    expect(nextReadAttempt([failed('primary')], 5, 'none')).toBeNull();
  });

  it('starts on a replica when one may serve, on the primary while the replicas are skipped', () => {
    expect(nextReadAttempt([], 0, 'use')).toEqual(replicaNow);
    expect(nextReadAttempt([], 0, 'skipped')).toMatchObject({ node: 'primary', afterMs: 0 });
  });

  it('goes to the primary at once after a replica failed or was behind', () => {
    expect(nextReadAttempt([failed('replica')], 3, 'use')).toMatchObject({ node: 'primary', afterMs: 0 });
    expect(nextReadAttempt([{ node: 'replica', why: 'behind' }], 3, 'use')).toMatchObject({
      node: 'primary',
      afterMs: 0,
    });
  });

  it("ends a first primary attempt in time for a replica's last try, while one may serve (PgBouncer holding a login in a switchover)", () => {
    // The replica's last try may start up to 1 s in; the primary's attempt ends 100 ms before.
    const untilLastReplicaTry = POSTGRES_LIMITS.callDeadlineMs - 1_000 - 100;
    expect(nextReadAttempt([], 0, 'skipped')).toEqual({ ...primaryNow, deadlineMs: untilLastReplicaTry });
    expect(nextReadAttempt([failed('replica')], 3, 'use')).toEqual({
      ...primaryNow,
      deadlineMs: untilLastReplicaTry - 3,
    });
    // Too little would be left before that try: the whole call deadline, as without replicas.
    expect(nextReadAttempt([failed('replica')], 600, 'use')).toEqual(primaryNow);
    // No replica try can follow one that was behind.
    expect(nextReadAttempt([{ node: 'replica', why: 'behind' }], 3, 'use')).toEqual(primaryNow);
  });

  it('gives a replica a last try when the primary failed soon enough, then the primary once more after the pause', () => {
    expect(nextReadAttempt([failed('replica'), failed('primary')], 40, 'use')).toEqual(replicaNow);
    expect(nextReadAttempt([failed('primary')], 1_000, 'skipped')).toEqual(replicaNow);
    expect(nextReadAttempt([failed('replica'), failed('primary'), failed('replica')], 1_100, 'use')).toEqual({
      node: 'primary',
      afterMs: PRIMARY_AGAIN_AFTER_MS,
      deadlineMs: 2_500 - 1_100 - PRIMARY_AGAIN_AFTER_MS,
    });
  });

  it('asks the primary once more when a replica timed out and the primary then refused (the roll-nodes failure)', () => {
    expect(nextReadAttempt([failed('replica'), failed('primary')], 1_040, 'use')).toEqual({
      node: 'primary',
      afterMs: PRIMARY_AGAIN_AFTER_MS,
      deadlineMs: 860,
    });
  });

  it('never sends a read back to a replica that was behind', () => {
    const missed: MissedAttempt[] = [{ node: 'replica', why: 'behind' }, failed('primary')];
    expect(nextReadAttempt(missed, 20, 'use')).toMatchObject({ node: 'primary', afterMs: PRIMARY_AGAIN_AFTER_MS });
  });

  it('asks the primary again after each failure while it fits, with no more replica tries (PgBouncer refusing for seconds)', () => {
    const twice = [failed('replica'), failed('primary'), failed('replica'), failed('primary')];
    expect(nextReadAttempt(twice, 1_250, 'use')).toEqual({
      node: 'primary',
      afterMs: PRIMARY_AGAIN_AFTER_MS,
      deadlineMs: 2_500 - 1_250 - PRIMARY_AGAIN_AFTER_MS,
    });
    expect(nextReadAttempt([failed('primary'), failed('replica'), failed('primary')], 700, 'skipped')).toMatchObject({
      node: 'primary',
    });
  });

  it('makes the pause before a last try shorter when a full one would leave the try too little time (two roll-nodes reads gave up at 1.7 s)', () => {
    const twice = [failed('replica'), failed('primary'), failed('replica'), failed('primary')];
    expect(nextReadAttempt(twice, 1_700, 'use')).toEqual({ node: 'primary', afterMs: 400, deadlineMs: 400 });
    expect(nextReadAttempt([failed('replica'), failed('primary')], 1_600, 'use')).toEqual({
      node: 'primary',
      afterMs: 500,
      deadlineMs: 400,
    });
  });

  it('gives up when no useful time is left', () => {
    const thrice = [failed('replica'), failed('primary'), failed('replica'), failed('primary'), failed('primary')];
    expect(nextReadAttempt(thrice, 2_100, 'use')).toBeNull();
    expect(nextReadAttempt(thrice, 1_901, 'use')).toBeNull();
    expect(nextReadAttempt(thrice, 1_900, 'use')).toEqual({ node: 'primary', afterMs: 200, deadlineMs: 400 });
    expect(nextReadAttempt([failed('primary')], POSTGRES_LIMITS.callDeadlineMs, 'skipped')).toBeNull();
  });

  // Every attempt failing at any point of its time, in every order the plan allows: no read is
  // answered later than 3 s, the promise POSTGRES_LIMITS is chosen for.
  it.each<ReplicaChoice>(['none', 'skipped', 'use'])('ends every read within 3 s (replicas: %s)', (replicas) => {
    const shares = [0, 0.01, 0.3, 1];
    let latest = 0;
    let reads = 0;
    const walk = (missed: MissedAttempt[], elapsedMs: number): void => {
      const attempt: ReadAttempt | null = nextReadAttempt(missed, elapsedMs, replicas);
      if (attempt === null) {
        latest = Math.max(latest, elapsedMs);
        reads++;
        return;
      }
      expect(missed.length).toBeLessThan(8);
      for (const share of shares)
        walk([...missed, failed(attempt.node)], elapsedMs + attempt.afterMs + share * attempt.deadlineMs);
    };
    walk([], 0);
    expect(reads).toBeGreaterThan(3);
    expect(latest).toBeLessThanOrEqual(3_000);
  });
});
