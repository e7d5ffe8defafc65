import { randomUUID } from 'node:crypto';
import {
  type ArticleChanges,
  type ArticleRepository,
  allowsVersion,
  type ExpectedVersions,
  type IdempotencyClaim,
  type KeyedCreateOutcome,
  type ListVersion,
  type NewArticle,
  NO_WRITE_EVENTS,
  type RevisionsPage,
  type RevisionTest,
  type SlugLookup,
  STREAM_CHUNK_SIZE,
  type VersionObserver,
  type VisibleArticlesFilter,
  type VisibleArticlesPage,
  type WriteEvents,
  type WriteGuard,
} from '../../../application';
import {
  type Article,
  ArticleChangedError,
  type ArticleRevision,
  applyPublicationChange,
  RevisionNotFoundError,
  searchableTextOf,
  type Term,
  type TermKind,
} from '../../../domain';
import { InMemoryAuthors } from './in-memory-authors';
import { InMemoryKeys } from './in-memory-keys';
import { latestPublishedAt, walkVisible } from './in-memory-list-walk';
import { InMemoryRevisions } from './in-memory-revisions';
import { InMemorySlugs } from './in-memory-slugs';
import { restoredState, type StoredArticle } from './in-memory-stored-article';
import { InMemoryTerms } from './in-memory-terms';
import { InMemoryWebhooks } from './in-memory-webhooks';

/**
 * Keeps everything in process memory. Each method runs to completion without awaiting, so
 * every write is atomic: references are resolved before anything is stored. `authors` is shared
 * with the InMemoryKeyRepository whose keys create articles here; `webhooks` with the
 * InMemoryWebhookRepository: every write records there the events `writeEvents` gives it.
 */
export class InMemoryArticleRepository implements ArticleRepository {
  constructor(
    private readonly authors: InMemoryAuthors = new InMemoryAuthors(),
    private readonly webhooks: InMemoryWebhooks = new InMemoryWebhooks(),
    private readonly writeEvents: WriteEvents = NO_WRITE_EVENTS,
  ) {}

  private readonly articles = new Map<number, StoredArticle>();
  private readonly terms = new InMemoryTerms();
  private readonly keys = new InMemoryKeys();
  private readonly slugs = new InMemorySlugs();
  private readonly revisions = new InMemoryRevisions();
  private lastId = 0;
  /** Committed writes so far: the version of the data (every write below runs without awaiting). */
  private writes = 0;
  /** Another store's versions count from 0 too. */
  private readonly versionPrefix = `${randomUUID()}/`;

  async create(article: NewArticle): Promise<Article> {
    return this.store(article);
  }

  async createWithKey(article: NewArticle, claim: IdempotencyClaim): Promise<KeyedCreateOutcome> {
    const stored = this.keys.live(claim);
    if (stored) return { outcome: 'stored', ...stored };
    // Nothing awaits between the check and the writes, so no other create can claim the key in
    // between (in-progress cannot happen here); a create that throws stores no key.
    const created = this.store(article);
    this.keys.store(claim, article.createdAt, created);
    return { outcome: 'created', article: created };
  }

  async deleteExpiredKeys(upTo: Date, limit: number): Promise<number> {
    return this.keys.deleteExpired(upTo, limit);
  }

  /** Synchronous, so that a keyed create checks and writes without yielding. */
  private store(article: NewArticle): Article {
    this.terms.checkReferencedIds('tag', article.tags);
    this.terms.checkReferencedIds('category', article.categories);
    // An unknown author id throws here, before anything is written (as a foreign key does on SQL).
    if (article.author !== null) this.authors.get(article.author.id);
    const slug = this.slugs.free(article.slug);
    const tagIds = this.terms.resolve('tag', article.tags);
    const categoryIds = this.terms.resolve('category', article.categories);
    const stored: StoredArticle = {
      ...article.fields,
      publishedAt: article.publishedAt,
      slug,
      id: ++this.lastId,
      tagIds,
      categoryIds,
      createdAt: article.createdAt,
      updatedAt: article.createdAt,
      version: 1,
      search: searchableTextOf(article.fields),
      authorId: article.author?.id ?? null,
    };
    this.articles.set(stored.id, stored);
    this.slugs.take(slug, stored.id);
    this.writes++;
    const created = this.toArticle(stored);
    this.webhooks.recordWrite(this.writeEvents, null, created, article.createdAt);
    return created;
  }

  async update(
    id: number,
    changes: ArticleChanges,
    expected: ExpectedVersions | undefined,
    guard: WriteGuard,
  ): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    guard(this.toArticle(current));
    checkVersion(current, expected);
    const slug = changes.slug ?? current.slug;
    this.slugs.checkFree(slug, id);
    this.terms.checkReferencedIds('tag', changes.tags ?? []);
    this.terms.checkReferencedIds('category', changes.categories ?? []);
    const tagIds = changes.tags ? this.terms.resolve('tag', changes.tags) : current.tagIds;
    const categoryIds = changes.categories ? this.terms.resolve('category', changes.categories) : current.categoryIds;
    // updatedAt never moves back, as on the SQL adapters (see the port).
    const updatedAt = new Date(Math.max(current.updatedAt.getTime(), changes.updatedAt.getTime()));
    const version = current.version + 1;
    const search = { ...current.search, ...searchableTextOf(changes.fields) };
    this.revisions.keep(this.toArticle(current), changes.updatedAt);
    const publishedAt = applyPublicationChange(current.publishedAt, changes.publication);
    const updated: StoredArticle = {
      ...current,
      ...changes.fields,
      publishedAt,
      slug,
      tagIds,
      categoryIds,
      updatedAt,
      version,
      search,
    };
    this.articles.set(id, updated);
    this.slugs.rename(id, current.slug, slug);
    this.writes++;
    const after = this.toArticle(updated);
    this.webhooks.recordWrite(this.writeEvents, this.toArticle(current), after, changes.updatedAt);
    return after;
  }

  async delete(
    id: number,
    at: Date,
    expected: ExpectedVersions | undefined,
    guard: WriteGuard,
  ): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    guard(this.toArticle(current));
    checkVersion(current, expected);
    this.revisions.keep(this.toArticle(current), at);
    this.articles.delete(id);
    this.slugs.release(id, current.slug);
    this.writes++;
    const before = this.toArticle(current);
    this.webhooks.recordWrite(this.writeEvents, before, null, at);
    return before;
  }

  async findById(id: number): Promise<Article | null> {
    const stored = this.articles.get(id);
    return stored ? this.toArticle(stored) : null;
  }

  async restore(id: number, revision: number, at: Date, expected?: ExpectedVersions): Promise<Article> {
    const kept = this.revisions.find(id, revision);
    if (!kept) throw new RevisionNotFoundError(id, revision);
    const current = this.articles.get(id);
    // A deleted article is at no version: a condition on one, `*` included, fails.
    if (expected && (!current || !allowsVersion(expected, current.version))) throw new ArticleChangedError(id);
    const target = kept.article;
    this.slugs.checkFree(target.slug, id);
    // A deleted article's last version is in the revision its delete kept: the next one is new.
    const last = current ?? this.revisions.lastState(id);
    if (current) this.revisions.keep(this.toArticle(current), at);
    const restored = restoredState(id, target, current, last, at);
    if (current) this.slugs.rename(id, current.slug, target.slug);
    else this.slugs.take(target.slug, id);
    this.articles.set(id, restored);
    // A deleted article comes back among the others in id order (lists walk the map in its order).
    if (!current) this.reorderById();
    this.writes++;
    const after = this.toArticle(restored);
    this.webhooks.recordWrite(this.writeEvents, current ? this.toArticle(current) : null, after, at);
    return after;
  }

  async listRevisions(id: number, page: RevisionsPage): Promise<ArticleRevision[] | null> {
    return this.revisions.list(id, page) ?? (this.articles.has(id) ? [] : null);
  }

  async latestReplacement(after: Date, upTo: Date, test: RevisionTest): Promise<Date | null> {
    return this.revisions.latestReplacement(after, upTo, test);
  }

  async deleteExpiredRevisions(upTo: Date, limit: number): Promise<number> {
    return this.revisions.deleteExpired(upTo, limit);
  }

  private reorderById(): void {
    const entries = [...this.articles.entries()].sort(([a], [b]) => a - b);
    this.articles.clear();
    for (const [id, article] of entries) this.articles.set(id, article);
  }

  async findBySlug(slug: string): Promise<SlugLookup | null> {
    const { current, earlier } = this.slugs.lookup(slug);
    const article = current === undefined ? undefined : this.articles.get(current);
    if (article) return { found: 'current', article: this.toArticle(article) };
    const moved = earlier === undefined ? undefined : this.articles.get(earlier);
    return moved ? { found: 'earlier', id: moved.id, slug: moved.slug } : null;
  }

  async listVisible(page: VisibleArticlesPage, onVersion?: VersionObserver): Promise<Article[]> {
    onVersion?.(await this.visibleVersion(page.moment));
    const found: Article[] = [];
    if (page.limit <= 0) return found;
    for (const article of this.visibleMatching(page)) {
      found.push(article);
      if (found.length === page.limit) break;
    }
    return found;
  }

  /**
   * One live walk over the store, as the SQL adapters' one statement: chunks are taken as they
   * are asked for, and an await between them lets other work run. A Map's iterator goes on
   * correctly while entries are added and deleted, so each article is yielded at most once.
   */
  async *streamVisible(
    filter: VisibleArticlesFilter,
    onVersion?: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    // Taken before the walk: a write during it may show in the chunks, and the data read is
    // then newer than this version, never older (see the port).
    const version = await this.visibleVersion(filter.moment);
    onVersion?.(version);
    let chunk: Article[] = [];
    for (const article of this.visibleMatching(filter)) {
      chunk.push(article);
      if (chunk.length === STREAM_CHUNK_SIZE) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
    return version;
  }

  /** The writes, and the latest publishedAt reached at `moment`: it changes when a scheduled time arrives. */
  async visibleVersion(moment: Date): Promise<ListVersion> {
    return `${this.versionPrefix}${this.writes}/${latestPublishedAt(this.articles.values(), moment)}`;
  }

  /** The visible articles the filter matches, in its order (in-memory-list-walk.ts). */
  private *visibleMatching(filter: VisibleArticlesFilter): Generator<Article> {
    const termIds = {
      tag: this.terms.idOf('tag', filter.tagName),
      category: this.terms.idOf('category', filter.categoryName),
      author: filter.author === undefined ? undefined : this.authors.idOfSlug(filter.author),
    };
    for (const article of walkVisible(this.articles, filter, termIds)) yield this.toArticle(article);
  }

  async listTerms(kind: TermKind): Promise<Term[]> {
    return this.terms.list(kind);
  }

  private toArticle(stored: StoredArticle): Article {
    const { tagIds, categoryIds, search: _search, authorId, ...rest } = stored;
    return {
      ...rest,
      tags: this.terms.termsOf('tag', tagIds),
      categories: this.terms.termsOf('category', categoryIds),
      publishedAt: stored.publishedAt && new Date(stored.publishedAt),
      createdAt: new Date(stored.createdAt),
      updatedAt: new Date(stored.updatedAt),
      author: authorId === null ? null : this.authors.get(authorId),
    };
  }
}

function checkVersion(current: StoredArticle, expected: ExpectedVersions | undefined): void {
  if (!allowsVersion(expected, current.version)) throw new ArticleChangedError(current.id);
}
