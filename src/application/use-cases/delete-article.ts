import { type Actor, type Article, ArticleNotFoundError } from '../../domain';
import { checkMayWrite } from '../access/article-access';
import type { ArticleRepository, ExpectedVersions } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface DeleteArticleInput {
  id: number;
  /** Delete only while the article is at one of these versions (If-Match); absent: whatever its version. */
  expected?: ExpectedVersions;
}

/**
 * Deletes an article and its links (its tags and categories stay); answers it as it was, which
 * stays as its last revision (RestoreArticle brings it back).
 */
export class DeleteArticle {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * If `actor` may (checkMayWrite on the article as the delete finds it). Throws
   * ArticleNotFoundError for an unknown id (or one it may not read), ForbiddenError, or
   * ArticleChangedError when the version differs.
   */
  async execute(input: DeleteArticleInput, actor: Actor): Promise<Article> {
    const now = this.clock.now();
    const deleted = await this.articles.delete(input.id, now, input.expected, (current) =>
      checkMayWrite(actor, current, now, 'delete'),
    );
    if (!deleted) throw new ArticleNotFoundError(input.id);
    return deleted;
  }
}
