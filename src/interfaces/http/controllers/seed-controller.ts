import type { SeedArticles } from '../../../application';
import { type ArticleJson, presentArticle } from '../presenters';

export class SeedController {
  constructor(private readonly seedArticles: SeedArticles) {}

  /** A GET that writes, as in the original API; it answers what GET /article would. */
  async create(): Promise<ArticleJson[]> {
    return (await this.seedArticles.execute()).map(presentArticle);
  }
}
