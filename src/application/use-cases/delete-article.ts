import { type Article, ArticleNotFoundError } from '../../domain';
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

  /** Throws ArticleNotFoundError for an unknown id, ArticleChangedError when the version differs. */
  async execute(input: DeleteArticleInput): Promise<Article> {
    const deleted = await this.articles.delete(input.id, this.clock.now(), input.expected);
    if (!deleted) throw new ArticleNotFoundError(input.id);
    return deleted;
  }
}
