import type { Request } from 'express';
import type { CreateArticle, GetArticle, ListVisibleArticles, UpdateArticle } from '../../../application';
import { presentArticle } from '../presenters';
import { HttpRequestError } from '../request-errors';
import type { HttpSuccess } from '../response';
import { createArticleBody, parseBody, parsePathId, updateArticleBody } from '../validation/article-schemas';

export class ArticleController {
  constructor(
    private readonly createArticle: CreateArticle,
    private readonly updateArticle: UpdateArticle,
    private readonly listVisibleArticles: ListVisibleArticles,
    private readonly getArticle: GetArticle,
  ) {}

  create = async (request: Request): Promise<HttpSuccess> => {
    const article = await this.createArticle.execute(parseBody(createArticleBody, request.body));
    return { status: 201, data: presentArticle(article) };
  };

  update = async (request: Request): Promise<HttpSuccess> => {
    const article = await this.updateArticle.execute(parseBody(updateArticleBody, request.body));
    return { status: 200, data: presentArticle(article) };
  };

  /** Reads no parameters: a query string is ignored. */
  listVisible = async (): Promise<HttpSuccess> => {
    const articles = await this.listVisibleArticles.execute();
    return { status: 200, data: articles.map(presentArticle) };
  };

  /** Any visibility; an id that does not exist is a 200 with null data, not an error. */
  getOne = async (request: Request): Promise<HttpSuccess> => {
    const raw = String(request.params.id);
    const id = parsePathId(raw);
    if (id === null) {
      const shown = raw.length > 32 ? `${raw.slice(0, 32)}…` : raw;
      throw new HttpRequestError(400, `id: "${shown}" is not an article id (a positive integer up to 2147483647)`);
    }
    const article = await this.getArticle.execute({ id });
    return { status: 200, data: article && presentArticle(article) };
  };
}
