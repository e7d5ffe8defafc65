import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept alive, in
 * percent, while no whole list streams. At 50 % the collector marks so often that a get costs
 * 8-9 % more CPU and a create 10 % (same-run ratios, docs/PERFORMANCE.md); from 100 % up the
 * cost is gone, and 100 keeps the resident set under steady load near 180 MB (400: 240 MB).
 */
export const STEADY_HEAP_GROWING_PERCENT = 100;

/**
 * The same while a whole list streams. By default the factor is dynamic (up to 4x): the whole
 * list at 100,000 articles promotes each chunk it has in flight, and the heap grew to about
 * 120 MB of garbage over a live 30 MB before one full collection, a peak RSS of 200-225 MB; at
 * 50 % it was 133-140 MB, at 100 % 139-155 MB. Lower is not better: at 10 % (131-144 MB) 32
 * clients reading the list got 9-16 % fewer lists a second, the collector running too often.
 * It caps nothing: a heap that needs more still grows, unlike --max-old-space-size.
 */
export const STREAMING_HEAP_GROWING_PERCENT = 50;

/**
 * The heap's growth factor for the process: STEADY_HEAP_GROWING_PERCENT, and
 * STREAMING_HEAP_GROWING_PERCENT from the start of a whole list until the last one in flight
 * ends. V8 reads the flag after every full collection, so a change holds from the next one.
 */
export class HeapGrowthPolicy {
  private streams = 0;

  constructor(
    /** False when the process was started with its own value, which then stays. */
    private readonly managed: boolean,
    private readonly setFlags: (flags: string) => void = v8.setFlagsFromString,
  ) {
    if (managed) this.setPercent(STEADY_HEAP_GROWING_PERCENT);
  }

  /** Runs the writing of a whole list with the streaming factor. */
  async whileStreaming<T>(write: () => Promise<T>): Promise<T> {
    if (!this.managed) return write();
    if (this.streams++ === 0) this.setPercent(STREAMING_HEAP_GROWING_PERCENT);
    try {
      return await write();
    } finally {
      if (--this.streams === 0) this.setPercent(STEADY_HEAP_GROWING_PERCENT);
    }
  }

  private setPercent(percent: number): void {
    this.setFlags(`--heap-growing-percent=${percent}`);
  }
}

/** Whether the process was started without its own value (node --heap-growing-percent=N). */
export function growthIsOurs(execArgv: readonly string[] = process.execArgv): boolean {
  return !execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg));
}

/** The process's policy, in force from its first moment (main.ts imports this module first). */
export const heapGrowth = new HeapGrowthPolicy(growthIsOurs());
