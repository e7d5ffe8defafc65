import type { CreateArticle, GetArticle, ListVisibleArticles, UpdateArticle } from '../../../application';
import { type ArticleJson, presentArticle } from '../presenters';
import type { CreateArticleBody, UpdateArticleBody } from '../validation/article-schemas';

/** Article use cases behind checked input; answers the data to wrap. */
export class ArticleController {
  constructor(
    private readonly createArticle: CreateArticle,
    private readonly updateArticle: UpdateArticle,
    private readonly listVisibleArticles: ListVisibleArticles,
    private readonly getArticle: GetArticle,
  ) {}

  async create(body: CreateArticleBody): Promise<ArticleJson> {
    return presentArticle(await this.createArticle.execute(body));
  }

  async update(body: UpdateArticleBody): Promise<ArticleJson> {
    return presentArticle(await this.updateArticle.execute(body));
  }

  /** Reads no parameters: a query string is ignored. */
  async listVisible(): Promise<ArticleJson[]> {
    return (await this.listVisibleArticles.execute()).map(presentArticle);
  }

  /** Any visibility; an id that does not exist is null data, not an error. */
  async getOne(id: number): Promise<ArticleJson | null> {
    const article = await this.getArticle.execute({ id });
    return article && presentArticle(article);
  }
}
