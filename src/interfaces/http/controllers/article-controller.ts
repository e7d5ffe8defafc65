import type {
  Clock,
  CreateArticle,
  DeleteArticle,
  GetArticle,
  GetArticleBySlug,
  ListArticleRevisions,
  ListVersion,
  ListVisibleArticles,
  ListVisibleArticlesInput,
  RestoreArticle,
  UpdateArticle,
} from '../../../application';
import type { Actor, Article } from '../../../domain';
import { articleJsonRuns } from '../article-json-runs';
import { entityTagOf, expectedVersionsOf, ifNoneMatchNames, listEntityTagOf } from '../entity-tag';
import type { ListTextCache } from '../list-text-cache';
import { encodeNewestCursor } from '../newest-cursor';
import { nextPageLink, nextRevisionsLink } from '../page-link';
import { type ArticleJson, presentArticle, presentRevision } from '../presenters';
import { MovedPermanently, NotModified, StreamedList, WithHeaders, WrappedJsonBody } from '../response';
import type {
  CreateArticleBody,
  DeleteArticleBody,
  IdempotencyKeyHeaders,
  IfMatchHeaders,
  IfNoneMatchHeaders,
  RestoreArticleBody,
  UpdateArticleBody,
} from '../validation/article-schemas';
import type { ListArticlesQuery } from '../validation/list-query';
import type { RevisionsQuery } from '../validation/revisions-query';

/** The article use cases the HTTP routes call. */
export interface ArticleUseCases {
  create: CreateArticle;
  update: UpdateArticle;
  delete: DeleteArticle;
  list: ListVisibleArticles;
  get: GetArticle;
  getBySlug: GetArticleBySlug;
  restore: RestoreArticle;
  revisions: ListArticleRevisions;
}

/**
 * Article use cases behind checked input; answers the data to wrap, with its headers. The clock
 * tells the moment an answer is shown at, which decides each article's status; a list's reading
 * of it comes first (inside the use case), so every article a list holds shows as published.
 */
export class ArticleController {
  constructor(
    private readonly useCases: ArticleUseCases,
    private readonly clock: Clock,
    /** null: every whole list is read from the storage. */
    private readonly listCache: ListTextCache | null = null,
  ) {}

  /** With an Idempotency-Key, a replay answers the stored article, marked `Idempotent-Replayed: true`. */
  async create(body: CreateArticleBody, headers: IdempotencyKeyHeaders, actor: Actor): Promise<WithHeaders> {
    const key = headers['Idempotency-Key'];
    if (key === undefined) return this.withEntityTag(await this.useCases.create.execute(body, actor));
    const { article, replayed } = await this.useCases.create.executeWithKey(body, key, actor);
    const answer = this.withEntityTag(article);
    return replayed ? new WithHeaders(answer.data, { ...answer.headers, 'Idempotent-Replayed': 'true' }) : answer;
  }

  async update(body: UpdateArticleBody, headers: IfMatchHeaders, actor: Actor): Promise<WithHeaders> {
    const expected = expectedVersionsOf(headers['If-Match'], body.id);
    return this.withEntityTag(await this.useCases.update.execute({ ...body, expected }, actor));
  }

  /** Answers the article as it was just before; no ETag, since it is gone. */
  async delete(body: DeleteArticleBody, headers: IfMatchHeaders, actor: Actor): Promise<ArticleJson> {
    const expected = expectedVersionsOf(headers['If-Match'], body.id);
    return presentArticle(await this.useCases.delete.execute({ id: body.id, expected }, actor), this.clock.now());
  }

  /** Makes the article what a revision holds (a deleted one comes back); answers it with its new ETag. */
  async restore(body: RestoreArticleBody, headers: IfMatchHeaders, actor: Actor): Promise<WithHeaders> {
    const expected = expectedVersionsOf(headers['If-Match'], body.id);
    return this.withEntityTag(await this.useCases.restore.execute({ ...body, expected }, actor));
  }

  /** An article's revisions, newest first; a full page links to the next. */
  async revisions(id: number, query: RevisionsQuery, actor: Actor): Promise<WithHeaders> {
    const revisions = await this.useCases.revisions.execute({ id, limit: query.limit, before: query.before }, actor);
    const last = revisions[revisions.length - 1];
    const next: Record<string, string> =
      query.limit !== undefined && revisions.length === query.limit && last
        ? { Link: nextRevisionsLink(id, query.limit, last.revision) }
        : {};
    return new WithHeaders(revisions.map(presentRevision), next);
  }

  /**
   * With `limit`, one page and the link to the next when it is full; without, every article,
   * streamed, or the answer kept for this query while the storage's version is unchanged. Both
   * carry the weak ETag of the version they were read at (which moves when a scheduled article's
   * time arrives); an If-None-Match that names the current one is answered 304 after one short
   * statement, reading no article.
   */
  async list(
    query: ListArticlesQuery,
    headers: IfNoneMatchHeaders,
  ): Promise<WithHeaders | StreamedList | WrappedJsonBody | NotModified> {
    const filters: ListVisibleArticlesInput = {
      order: query.order,
      after: query.after,
      before: query.cursor,
      tag: query.tag,
      category: query.category,
      featured: query.featured,
      author: query.author,
      q: query.q,
    };
    // The list cache's key, for whole lists only.
    const wholeListQuery =
      query.limit === undefined
        ? JSON.stringify([
            filters.order ?? 'id',
            filters.after,
            filters.before?.publishedAt.getTime(),
            filters.before?.id,
            filters.tag,
            filters.category,
            filters.featured,
            filters.q,
            filters.author,
          ])
        : '';
    const ifNoneMatch = headers['If-None-Match'];
    const needsVersion =
      ifNoneMatch !== undefined || (query.limit === undefined && this.listCache?.mayHold(wholeListQuery));
    const current = needsVersion ? await this.useCases.list.version() : undefined;
    const currentTag = versionTag(current);
    if (ifNoneMatchNames(ifNoneMatch, currentTag.ETag)) return new NotModified(currentTag);
    return query.limit === undefined
      ? this.wholeList(filters, wholeListQuery, current)
      : this.page(filters, query.limit);
  }

  /** One page, with the link to the next when it is full. */
  private async page(filters: ListVisibleArticlesInput, limit: number): Promise<WithHeaders> {
    let version: ListVersion | undefined;
    const page = await this.useCases.list.page({ ...filters, limit }, (read) => {
      version = read;
    });
    const shownAt = this.clock.now();
    const last = page[page.length - 1];
    const next: Record<string, string> =
      page.length === limit && last
        ? { Link: nextPageLink({ ...linkFilters(filters), limit, ...after(last, filters) }) }
        : {};
    return new WithHeaders(
      page.map((article) => presentArticle(article, shownAt)),
      { ...versionTag(version), ...next },
    );
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
      this.useCases.list.batches(filters, (first) => {
        version = first;
      }),
      this.clock,
    );
    const batches = this.listCache ? this.listCache.keeping(query, read) : read;
    return new StreamedList(batches, () => versionTag(version));
  }

  /**
   * Any status; an id that does not exist is null data, not an error. 304 when If-None-Match
   * names the article's current tag (`*`: any article that exists).
   */
  async getOne(id: number, headers: IfNoneMatchHeaders, actor: Actor): Promise<WithHeaders | NotModified | null> {
    const article = await this.useCases.get.execute({ id }, actor);
    return article && this.conditionally(article, headers);
  }

  /**
   * The article with this slug, as a read by id answers it; an earlier slug of an article is a
   * 301 to its current one, with `{id, slug}`.
   */
  async getBySlug(
    slug: string,
    headers: IfNoneMatchHeaders,
    actor: Actor,
  ): Promise<WithHeaders | NotModified | MovedPermanently> {
    const found = await this.useCases.getBySlug.execute({ slug }, actor);
    if (found.found === 'earlier') {
      return new MovedPermanently(`/article/slug/${found.slug}`, { id: found.id, slug: found.slug });
    }
    return this.conditionally(found.article, headers);
  }

  private conditionally(article: Article, headers: IfNoneMatchHeaders): WithHeaders | NotModified {
    const answer = this.withEntityTag(article);
    return ifNoneMatchNames(headers['If-None-Match'], answer.headers.ETag) ? new NotModified(answer.headers) : answer;
  }

  private withEntityTag(article: Article): WithHeaders {
    const shownAt = this.clock.now();
    return new WithHeaders(presentArticle(article, shownAt), { ETag: entityTagOf(article, shownAt) });
  }
}

/** The ETag header of a list read at `version`; none when the storage told no version. */
const versionTag = (version: ListVersion | undefined): Record<string, string> =>
  version === undefined ? {} : { ETag: listEntityTagOf(version) };

/** The filters a next page's link repeats. */
const linkFilters = ({ tag, category, featured, author, q }: ListVisibleArticlesInput) => ({
  tag,
  category,
  featured,
  author,
  q,
});

/** Where the page after `last` starts: its id, or newest first its position as a cursor. */
function after(last: Article, filters: ListVisibleArticlesInput): { after?: number; cursor?: string } {
  if (filters.order !== 'newest') return { after: last.id };
  // A listed article is published: its publishedAt is set.
  return { cursor: encodeNewestCursor({ publishedAt: last.publishedAt as Date, id: last.id }) };
}

/**
 * The batches as the API shows them, as JSON texts (runs of articles: article-json-runs.ts),
 * then what they return; closing this generator closes the one it reads. Each batch is shown at
 * the clock's reading once it is read.
 */
export async function* presented<Returned>(
  batches: AsyncGenerator<Article[], Returned | undefined>,
  clock: Clock,
): AsyncGenerator<string[], Returned | undefined> {
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done) return next.value;
      const shownAt = clock.now();
      yield articleJsonRuns(next.value, shownAt);
    }
  } finally {
    await batches.return(undefined);
  }
}
