import type { Article } from '../../domain';
import type { ArticleRepository } from '../ports/article-repository';

export interface GetArticleInput {
  id: number;
}

/** Reads one article whatever its visibility; null when it does not exist. */
export class GetArticle {
  constructor(private readonly articles: ArticleRepository) {}

  execute(input: GetArticleInput): Promise<Article | null> {
    return this.articles.findById(input.id);
  }
}
