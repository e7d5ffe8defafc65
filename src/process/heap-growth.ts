import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept alive, in
 * percent. By default the factor is dynamic (up to 4x): the whole list at 100,000 articles
 * promotes each chunk it has in flight, and the heap grew to about 120 MB of garbage over a
 * live 30 MB before one full collection, a peak RSS of 200-225 MB; at 50 % it was 133-140 MB.
 * Lower is not better: at 10 % (131-144 MB) 32 clients reading the list got 9-16 % fewer lists
 * a second, the collector running too often (docs/PERFORMANCE.md, "Decisions that stand"). It caps nothing:
 * a heap that needs more still grows, unlike --max-old-space-size.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Applies HEAP_GROWING_PERCENT unless the process was started with its own value (node
 * --heap-growing-percent=N). V8 reads the flag after every full collection, so setting it as
 * the process starts is enough.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

limitHeapGrowth();
