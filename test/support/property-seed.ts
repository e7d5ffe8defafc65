/**
 * The seed of a property test: `fixed` (the same cases on every run, in CI too), or the
 * integer in PROPERTY_SEED, to replay the seed a failure printed or to try others.
 */
export function propertySeed(fixed: number, environment: NodeJS.ProcessEnv = process.env): number {
  const raw = environment.PROPERTY_SEED;
  if (raw === undefined || raw === '') return fixed;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`PROPERTY_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return seed;
}

/**
 * The seed of a property test that explores: PROPERTY_SEED when set, `fixed` in CI (CI=true),
 * so that CI runs the same cases every time, and a new random seed elsewhere. The seed is in
 * the test's name, and fast-check prints it with any counterexample.
 */
export function explorationSeed(fixed: number, environment: NodeJS.ProcessEnv = process.env): number {
  if (environment.PROPERTY_SEED || environment.CI === 'true') return propertySeed(fixed, environment);
  return Math.floor(Math.random() * 2 ** 31);
}
