import type { Article } from '../../domain';
import type { ArticleRepository, ExpectedVersions } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface RestoreArticleInput {
  id: number;
  revision: number;
  /** Restore only while the article is at one of these versions (If-Match); absent: whatever its version. */
  expected?: ExpectedVersions;
}

/**
 * Makes an article what one of its revisions holds, a deleted one included (it comes back with
 * its id); the state it replaces is kept as a new revision. Throws, writing nothing,
 * RevisionNotFoundError, SlugTakenError or ArticleChangedError (ArticleRepository.restore).
 */
export class RestoreArticle {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  execute(input: RestoreArticleInput): Promise<Article> {
    return this.articles.restore(input.id, input.revision, this.clock.now(), input.expected);
  }
}
