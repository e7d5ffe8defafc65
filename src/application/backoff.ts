/** Waits between attempts: doubling from the first, capped. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/**
 * The waits in order, without end: `firstMs`, then each twice the one before, never more than
 * `maxMs` (the first is taken as given). An attempt that fails takes the next one.
 */
export function* backoffDelays({ firstMs, maxMs }: Backoff): Generator<number, never, undefined> {
  for (let delayMs = firstMs; ; delayMs = Math.min(delayMs * 2, maxMs)) yield delayMs;
}

/**
 * A wait shortened by up to half at random, so that instances started together (a deploy, a
 * cluster's workers) do not all knock on the database at the same moment.
 */
export const withJitter = (delayMs: number, random: () => number = Math.random): number =>
  delayMs * (0.5 + random() / 2);
