/** Time as the use cases see it: what time it is, and a wait measured in the same time. */
export interface Clock {
  now(): Date;
  /** Resolves once `ms` have passed on this clock (a test's clock moves on instead of waiting). */
  sleep(ms: number): Promise<void>;
}
