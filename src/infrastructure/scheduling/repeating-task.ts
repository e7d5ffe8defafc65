/** A task run again and again, each run starting `intervalMs` after the previous one ended. */
export interface RepeatingTask {
  /** No run starts after this; a run under way finishes on its own. */
  stop(): void;
}

/**
 * Runs `task` after `firstDelayMs`, then every `intervalMs`, never two runs at once. The timer
 * is unref'd: it never keeps the process alive. A run that fails is reported and the next one
 * runs as planned.
 */
export function startRepeating(
  task: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
  firstDelayMs: number = intervalMs,
): RepeatingTask {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(async () => {
      try {
        await task();
      } catch (error) {
        onError(error);
      }
      schedule(intervalMs);
    }, delayMs);
    timer.unref();
  };
  schedule(firstDelayMs);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
