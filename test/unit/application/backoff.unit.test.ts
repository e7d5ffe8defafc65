import { backoffDelays, withJitter } from '../../../src/application';

const first = (count: number, delays: Iterator<number>) =>
  Array.from({ length: count }, () => delays.next().value as number);

describe('backoffDelays', () => {
  it('doubles from the first wait and stays at the cap', () => {
    expect(first(7, backoffDelays({ firstMs: 250, maxMs: 2_000 }))).toEqual([
      250, 500, 1_000, 2_000, 2_000, 2_000, 2_000,
    ]);
  });

  it('caps a doubling that passes the cap, not only one that meets it', () => {
    expect(first(4, backoffDelays({ firstMs: 300, maxMs: 1_000 }))).toEqual([300, 600, 1_000, 1_000]);
  });

  it('takes the first wait as given, even above the cap', () => {
    expect(first(3, backoffDelays({ firstMs: 5_000, maxMs: 2_000 }))).toEqual([5_000, 2_000, 2_000]);
  });

  it('starts over for each sequence', () => {
    const backoff = { firstMs: 100, maxMs: 1_000 };
    const one = backoffDelays(backoff);
    first(3, one);
    expect(first(2, backoffDelays(backoff))).toEqual([100, 200]);
    expect(one.next().value).toBe(800);
  });
});

describe('withJitter', () => {
  it('shortens a wait by up to half, as the random number says', () => {
    expect(withJitter(1_000, () => 0)).toBe(500);
    expect(withJitter(1_000, () => 0.5)).toBe(750);
    expect(withJitter(1_000, () => 0.999)).toBeCloseTo(999.5);
  });

  it('stays within half and the whole of the wait with Math.random', () => {
    for (let n = 0; n < 1_000; n++) {
      const delayMs = withJitter(2_000);
      expect(delayMs).toBeGreaterThanOrEqual(1_000);
      expect(delayMs).toBeLessThan(2_000);
    }
  });
});
