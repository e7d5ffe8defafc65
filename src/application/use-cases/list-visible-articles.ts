import type { Article } from '../../domain';
import type { ArticleRepository } from '../ports/article-repository';

export interface ListVisibleArticlesInput {
  /** The HTTP endpoint never sets it; back-office callers may. */
  includeInvisible?: boolean;
}

export class ListVisibleArticles {
  constructor(private readonly articles: ArticleRepository) {}

  execute(input: ListVisibleArticlesInput = {}): Promise<Article[]> {
    return this.articles.list({ includeInvisible: input.includeInvisible ?? false });
  }
}
