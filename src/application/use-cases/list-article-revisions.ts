import { ArticleNotFoundError, type ArticleRevision } from '../../domain';
import type { ArticleRepository } from '../ports/article-repository';

export interface ListArticleRevisionsInput {
  id: number;
  /** At most this many, newest first; absent: every one kept. */
  limit?: number;
  /** Only revisions numbered below this one (the next page after a revision). */
  before?: number;
}

/**
 * An article's revisions, newest first, a deleted article's included; ArticleNotFoundError for
 * an id that no article has or had.
 */
export class ListArticleRevisions {
  constructor(private readonly articles: ArticleRepository) {}

  async execute(input: ListArticleRevisionsInput): Promise<ArticleRevision[]> {
    const revisions = await this.articles.listRevisions(input.id, { limit: input.limit, before: input.before });
    if (!revisions) throw new ArticleNotFoundError(input.id);
    return revisions;
  }
}
