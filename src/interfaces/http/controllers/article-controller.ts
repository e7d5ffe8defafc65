import type {
  CreateArticle,
  DeleteArticle,
  GetArticle,
  ListVisibleArticles,
  ListVisibleArticlesInput,
  UpdateArticle,
} from '../../../application';
import type { Article } from '../../../domain';
import { entityTagOf, expectedVersionsOf } from '../entity-tag';
import type { ListTextCache } from '../list-text-cache';
import { nextPageLink } from '../page-link';
import { type ArticleJson, articleJsonText, presentArticle } from '../presenters';
import { StreamedList, WithHeaders, WrappedJsonBody } from '../response';
import type {
  CreateArticleBody,
  DeleteArticleBody,
  IdempotencyKeyHeaders,
  IfMatchHeaders,
  UpdateArticleBody,
} from '../validation/article-schemas';
import type { ListArticlesQuery } from '../validation/list-query';

/** Article use cases behind checked input; answers the data to wrap, with its headers. */
export class ArticleController {
  constructor(
    private readonly createArticle: CreateArticle,
    private readonly updateArticle: UpdateArticle,
    private readonly deleteArticle: DeleteArticle,
    private readonly listVisibleArticles: ListVisibleArticles,
    private readonly getArticle: GetArticle,
    /** null: every whole list is read from the storage. */
    private readonly listCache: ListTextCache | null = null,
  ) {}

  /** With an Idempotency-Key, a replay answers the stored article, marked `Idempotent-Replayed: true`. */
  async create(body: CreateArticleBody, headers: IdempotencyKeyHeaders): Promise<WithHeaders> {
    const key = headers['Idempotency-Key'];
    if (key === undefined) return withEntityTag(await this.createArticle.execute(body));
    const { article, replayed } = await this.createArticle.executeWithKey(body, key);
    const answer = withEntityTag(article);
    return replayed ? new WithHeaders(answer.data, { ...answer.headers, 'Idempotent-Replayed': 'true' }) : answer;
  }

  async update(body: UpdateArticleBody, headers: IfMatchHeaders): Promise<WithHeaders> {
    const expected = expectedVersionsOf(headers['If-Match'], body.id);
    return withEntityTag(await this.updateArticle.execute({ ...body, expected }));
  }

  /** Answers the article as it was just before; no ETag, since it is gone. */
  async delete(body: DeleteArticleBody, headers: IfMatchHeaders): Promise<ArticleJson> {
    const expected = expectedVersionsOf(headers['If-Match'], body.id);
    return presentArticle(await this.deleteArticle.execute({ id: body.id, expected }));
  }

  /**
   * With `limit`, one page and the link to the next when it is full; without, every article,
   * streamed, or the answer kept for this query while the storage's version is unchanged.
   */
  async list(query: ListArticlesQuery): Promise<WithHeaders | StreamedList | WrappedJsonBody> {
    const filters = { after: query.after, tag: query.tag, category: query.category, q: query.q };
    if (query.limit === undefined) return this.wholeList(filters);
    const page = await this.listVisibleArticles.page({ ...filters, limit: query.limit });
    const last = page[page.length - 1];
    const headers: Record<string, string> =
      page.length === query.limit && last
        ? { Link: nextPageLink({ ...filters, limit: query.limit, after: last.id }) }
        : {};
    return new WithHeaders(page.map(presentArticle), headers);
  }

  private async wholeList(filters: ListVisibleArticlesInput): Promise<StreamedList | WrappedJsonBody> {
    const batches = () => presented(this.listVisibleArticles.batches(filters));
    if (!this.listCache) return new StreamedList(batches());
    const query = JSON.stringify([filters.after, filters.tag, filters.category, filters.q]);
    if (this.listCache.mayHold(query)) {
      const kept = this.listCache.find(await this.listVisibleArticles.version(), query);
      if (kept) return new WrappedJsonBody(kept);
    }
    return new StreamedList(this.listCache.keeping(query, batches()));
  }

  /** Any visibility; an id that does not exist is null data, not an error. */
  async getOne(id: number): Promise<WithHeaders | null> {
    const article = await this.getArticle.execute({ id });
    return article && withEntityTag(article);
  }
}

function withEntityTag(article: Article): WithHeaders {
  return new WithHeaders(presentArticle(article), { ETag: entityTagOf(article) });
}

/**
 * The batches as the API shows them, as JSON texts, then what they return; closing this
 * generator closes the one it reads.
 */
export async function* presented<Returned>(
  batches: AsyncGenerator<Article[], Returned | undefined>,
): AsyncGenerator<string[], Returned | undefined> {
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done) return next.value;
      yield next.value.map(articleJsonText);
    }
  } finally {
    await batches.return(undefined);
  }
}
