/**
 * Preloaded (node --require) into the built service by the soak test only. Every
 * MEMORY_PROBE_MS it runs a full garbage collection (with --expose-gc), so that what is left
 * is what the process holds on to, and prints one JSON line with process.memoryUsage().
 */
const interval = Number(process.env.MEMORY_PROBE_MS);
if (interval > 0) {
  setInterval(() => {
    globalThis.gc?.();
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    const sample = { probe: 'memory', at: Date.now(), rss, heapUsed, heapTotal, external, arrayBuffers };
    process.stdout.write(`${JSON.stringify(sample)}\n`);
  }, interval).unref();
}
