/** How a purge of expired rows runs: bounded batches, so that it never holds locks on many rows at once. */
export interface PurgeSettings {
  /** Rows older than this are expired. */
  readonly retentionMs: number;
  /** Rows removed by one statement. */
  readonly batchSize: number;
  /** Statements in one run at most; the rest waits for the next run. */
  readonly maxBatches: number;
}

/**
 * Removes the rows `remove` finds stored at or before `upTo`, batch after batch, until a batch
 * is not full or the run's batches are spent; answers how many it removed. Safe in several
 * processes at once: each statement removes what it finds, and a row removed twice is removed once.
 */
export async function purgeInBatches(
  remove: (upTo: Date, limit: number) => Promise<number>,
  upTo: Date,
  settings: PurgeSettings,
): Promise<number> {
  let removed = 0;
  for (let batch = 0; batch < settings.maxBatches; batch++) {
    const count = await remove(upTo, settings.batchSize);
    removed += count;
    if (count < settings.batchSize) break;
  }
  return removed;
}
