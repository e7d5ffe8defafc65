/** Everything a benchmark started, stopped in reverse order by cleanUp. */
export const cleanups: (() => Promise<void>)[] = [];

/** Stops what was started, newest first, down to the first `keep` (all of it by default). */
export async function cleanUp(keep = 0): Promise<void> {
  while (cleanups.length > keep)
    await cleanups
      .pop()?.()
      .catch((error) => console.error(error));
}

/**
 * Runs a benchmark's `main`, and always `cleanUp` after it: when it ends, fails (exit code 1)
 * or is interrupted (SIGINT/SIGTERM, exit code 130), so no server or database is left behind.
 */
export function runMain(main: () => Promise<void>, what: string): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping ${what}`);
      void cleanUp().then(() => process.exit(130));
    });
  }
  main()
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    })
    .finally(cleanUp);
}
