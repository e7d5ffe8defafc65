import type { ArticleRepository } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface PurgeSettings {
  /** Records older than this are expired (the same retention as CreateArticle's). */
  readonly retentionMs: number;
  /** Rows removed by one statement, so that a purge never holds locks on many rows at once. */
  readonly batchSize: number;
  /** Statements in one run at most; the rest waits for the next run. */
  readonly maxBatches: number;
}

/**
 * Removes expired Idempotency-Key records in bounded batches. Expired records are already
 * ignored by creates; this only keeps the table from growing. Safe to run in several processes
 * at once: each statement removes what it finds, and a row removed twice is removed once.
 */
export class PurgeExpiredIdempotencyKeys {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
    private readonly settings: PurgeSettings,
  ) {}

  /** Answers how many records it removed. */
  async execute(): Promise<number> {
    const upTo = new Date(this.clock.now().getTime() - this.settings.retentionMs);
    let removed = 0;
    for (let batch = 0; batch < this.settings.maxBatches; batch++) {
      const count = await this.articles.deleteExpiredKeys(upTo, this.settings.batchSize);
      removed += count;
      if (count < this.settings.batchSize) break;
    }
    return removed;
  }
}
