import type { Actor, Article } from '../../domain';
import { mayRead } from '../access/article-access';
import type { ArticleRepository } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface GetArticleInput {
  id: number;
}

/**
 * Reads one article whatever its status, if `actor` may read it (a draft or scheduled one only
 * who may edit it); null when it does not exist, or may not be read: the two look the same.
 */
export class GetArticle {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: GetArticleInput, actor: Actor): Promise<Article | null> {
    const article = await this.articles.findById(input.id);
    return article && mayRead(actor, article, this.clock.now()) ? article : null;
  }
}
