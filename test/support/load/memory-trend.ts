/** One reading of the service's memory after a full GC (see memory-probe.cjs). */
export interface MemorySample {
  at: number;
  rss: number;
  heapUsed: number;
}

export interface MemoryTrend {
  samples: number;
  /** Medians of the first and last third of the samples, in bytes. */
  firstThird: number;
  lastThird: number;
  /** Least-squares slope, in bytes per minute. */
  slopePerMinute: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The trend of one measure over the samples: thirds compared, and the fitted slope. */
export function memoryTrend(samples: readonly MemorySample[], measure: 'heapUsed' | 'rss'): MemoryTrend {
  const values = samples.map((sample) => sample[measure]);
  const third = Math.max(1, Math.floor(values.length / 3));
  const minutes = samples.map((sample) => (sample.at - (samples[0]?.at ?? 0)) / 60_000);
  const meanX = minutes.reduce((a, b) => a + b, 0) / minutes.length;
  const meanY = values.reduce((a, b) => a + b, 0) / values.length;
  let covariance = 0;
  let variance = 0;
  for (const [i, x] of minutes.entries()) {
    covariance += (x - meanX) * ((values[i] ?? 0) - meanY);
    variance += (x - meanX) ** 2;
  }
  return {
    samples: values.length,
    firstThird: median(values.slice(0, third)),
    lastThird: median(values.slice(-third)),
    slopePerMinute: variance === 0 ? 0 : covariance / variance,
  };
}

export const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
