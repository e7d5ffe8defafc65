import type { Article } from './article';

/**
 * An article as it was just before a write replaced it (an update, a delete or a restore),
 * stored in that write's transaction. Numbered per article from 1 upward.
 */
export interface ArticleRevision {
  readonly revision: number;
  /** When the write that replaced it happened. */
  readonly replacedAt: Date;
  readonly article: Article;
}
