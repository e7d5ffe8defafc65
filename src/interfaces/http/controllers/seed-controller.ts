import type { SeedArticles } from '../../../application';
import { presentArticle } from '../presenters';
import type { HttpSuccess } from '../response';

export class SeedController {
  constructor(private readonly seedArticles: SeedArticles) {}

  /** A GET that writes, as in the original API; it answers what GET /article would. */
  create = async (): Promise<HttpSuccess> => {
    const articles = await this.seedArticles.execute();
    return { status: 200, data: articles.map(presentArticle) };
  };
}
