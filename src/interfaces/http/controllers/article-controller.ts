import type {
  CreateArticle,
  DeleteArticle,
  GetArticle,
  ListVersion,
  ListVisibleArticles,
  ListVisibleArticlesInput,
  UpdateArticle,
} from '../../../application';
import type { Article } from '../../../domain';
import { entityTagOf, expectedVersionsOf, ifNoneMatchNames, listEntityTagOf } from '../entity-tag';
import type { ListTextCache } from '../list-text-cache';
import { nextPageLink } from '../page-link';
import { type ArticleJson, articleJsonText, presentArticle } from '../presenters';
import { NotModified, StreamedList, WithHeaders, WrappedJsonBody } from '../response';
import type {
  CreateArticleBody,
  DeleteArticleBody,
  IdempotencyKeyHeaders,
  IfMatchHeaders,
  IfNoneMatchHeaders,
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
   * streamed, or the answer kept for this query while the storage's version is unchanged. Both
   * carry the weak ETag of the version they were read at; an If-None-Match that names the current
   * one is answered 304 after one short statement, reading no article.
   */
  async list(
    query: ListArticlesQuery,
    headers: IfNoneMatchHeaders,
  ): Promise<WithHeaders | StreamedList | WrappedJsonBody | NotModified> {
    const filters = { after: query.after, tag: query.tag, category: query.category, q: query.q };
    // The list cache's key, for whole lists only.
    const wholeListQuery =
      query.limit === undefined ? JSON.stringify([filters.after, filters.tag, filters.category, filters.q]) : '';
    const ifNoneMatch = headers['If-None-Match'];
    const needsVersion =
      ifNoneMatch !== undefined || (query.limit === undefined && this.listCache?.mayHold(wholeListQuery));
    const current = needsVersion ? await this.listVisibleArticles.version() : undefined;
    const currentTag = versionTag(current);
    if (ifNoneMatchNames(ifNoneMatch, currentTag.ETag)) return new NotModified(currentTag);
    return query.limit === undefined
      ? this.wholeList(filters, wholeListQuery, current)
      : this.page(filters, query.limit);
  }

  /** One page, with the link to the next when it is full. */
  private async page(filters: ListVisibleArticlesInput, limit: number): Promise<WithHeaders> {
    let version: ListVersion | undefined;
    const page = await this.listVisibleArticles.page({ ...filters, limit }, (read) => {
      version = read;
    });
    const last = page[page.length - 1];
    const next: Record<string, string> =
      page.length === limit && last ? { Link: nextPageLink({ ...filters, limit, after: last.id }) } : {};
    return new WithHeaders(page.map(presentArticle), { ...versionTag(version), ...next });
  }

  /** `current`: the storage's version just read, if it was. */
  private wholeList(
    filters: ListVisibleArticlesInput,
    query: string,
    current: ListVersion | undefined,
  ): StreamedList | WrappedJsonBody {
    const kept = current === undefined ? undefined : this.listCache?.find(current, query);
    // Kept under the version its stream read it at: current is exactly that answer's version.
    if (kept && current !== undefined) return new WrappedJsonBody(kept, versionTag(current));
    let version: ListVersion | undefined;
    const read = presented(
      this.listVisibleArticles.batches(filters, (first) => {
        version = first;
      }),
    );
    const batches = this.listCache ? this.listCache.keeping(query, read) : read;
    return new StreamedList(batches, () => versionTag(version));
  }

  /**
   * Any visibility; an id that does not exist is null data, not an error. 304 when
   * If-None-Match names the article's current tag (`*`: any article that exists).
   */
  async getOne(id: number, headers: IfNoneMatchHeaders): Promise<WithHeaders | NotModified | null> {
    const article = await this.getArticle.execute({ id });
    if (!article) return null;
    const answer = withEntityTag(article);
    return ifNoneMatchNames(headers['If-None-Match'], answer.headers.ETag) ? new NotModified(answer.headers) : answer;
  }
}

/** The ETag header of a list read at `version`; none when the storage told no version. */
const versionTag = (version: ListVersion | undefined): Record<string, string> =>
  version === undefined ? {} : { ETag: listEntityTagOf(version) };

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
