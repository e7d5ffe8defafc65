import type { ArticleRepository } from '../ports/article-repository';
import type { Clock } from '../ports/clock';
import { type PurgeSettings, purgeInBatches } from './purge-in-batches';

/** Removes the revisions replaced longer ago than REVISION_RETENTION_DAYS, in bounded batches. */
export class PurgeExpiredRevisions {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
    private readonly settings: PurgeSettings,
  ) {}

  /** Answers how many revisions it removed. */
  execute(): Promise<number> {
    const upTo = new Date(this.clock.now().getTime() - this.settings.retentionMs);
    return purgeInBatches((before, limit) => this.articles.deleteExpiredRevisions(before, limit), upTo, this.settings);
  }
}
