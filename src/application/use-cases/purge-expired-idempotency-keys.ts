import type { ArticleRepository } from '../ports/article-repository';
import type { Clock } from '../ports/clock';
import { type PurgeSettings, purgeInBatches } from './purge-in-batches';

export type { PurgeSettings } from './purge-in-batches';

/**
 * Removes expired Idempotency-Key records (older than the same retention as CreateArticle's) in
 * bounded batches. Expired records are already ignored by creates; this only keeps the table
 * from growing.
 */
export class PurgeExpiredIdempotencyKeys {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
    private readonly settings: PurgeSettings,
  ) {}

  /** Answers how many records it removed. */
  execute(): Promise<number> {
    const upTo = new Date(this.clock.now().getTime() - this.settings.retentionMs);
    return purgeInBatches((before, limit) => this.articles.deleteExpiredKeys(before, limit), upTo, this.settings);
  }
}
