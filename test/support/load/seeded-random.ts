/**
 * A small seeded generator (mulberry32), so that a random kill moment or traffic mix can be
 * replayed: the seed is printed and recorded with the results.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** RELIABILITY_SEED when given (to replay a run), else a fresh one. */
export function runSeed(): number {
  const given = Number(process.env.RELIABILITY_SEED);
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}
