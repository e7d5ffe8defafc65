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
  type RevisionsPage,
  type SlugLookup,
  type SlugRequest,
  STREAM_CHUNK_SIZE,
  type VersionObserver,
  type VisibleArticlesFilter,
  type VisibleArticlesPage,
} from '../../../application';
import {
  type Article,
  ArticleChangedError,
  type ArticleFields,
  type ArticleRevision,
  applyPublicationChange,
  containsFolded,
  isReferenceById,
  RevisionNotFoundError,
  type SearchableText,
  SlugTakenError,
  searchableTextOf,
  slugCandidates,
  sortTermsByName,
  type Term,
  type TermKind,
  type TermReference,
  UnknownReferenceError,
} from '../../../domain';
import { newTermId } from '../term-id';

/** A key's record: the article as it was created, answered again to the same request. */
interface KeyRecord {
  fingerprint: string;
  storedAt: Date;
  article: Article;
}

interface StoredArticle extends ArticleFields {
  id: number;
  publishedAt: Date | null;
  slug: string;
  tagIds: string[];
  categoryIds: string[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /** The searchable fields folded for search, kept in step with the fields on every write. */
  search: SearchableText;
}

/**
 * Keeps everything in process memory. Each method runs to completion without awaiting, so
 * every write is atomic: references are resolved before anything is stored.
 */
export class InMemoryArticleRepository implements ArticleRepository {
  private readonly articles = new Map<number, StoredArticle>();
  private readonly terms: Record<TermKind, Map<string, Term>> = { tag: new Map(), category: new Map() };
  private readonly termIdsByName: Record<TermKind, Map<string, string>> = { tag: new Map(), category: new Map() };
  private readonly keys = new Map<string, KeyRecord>();
  /** Each current article's slug, and the earlier slugs that still lead to an article. */
  private readonly idsBySlug = new Map<string, number>();
  private readonly idsByEarlierSlug = new Map<string, number>();
  /** Each article's revisions, oldest first; kept after a delete. */
  private readonly revisions = new Map<number, ArticleRevision[]>();
  private lastId = 0;
  /** Committed writes so far: the version of the data (every write below runs without awaiting). */
  private writes = 0;
  /** Another store's versions count from 0 too. */
  private readonly versionPrefix = `${randomUUID()}/`;

  async create(article: NewArticle): Promise<Article> {
    return this.store(article);
  }

  async createWithKey(article: NewArticle, claim: IdempotencyClaim): Promise<KeyedCreateOutcome> {
    const record = this.keys.get(claim.key);
    if (record && record.storedAt > claim.expiredUpTo) {
      return { outcome: 'stored', fingerprint: record.fingerprint, article: structuredClone(record.article) };
    }
    // Nothing awaits between the check and the writes, so no other create can claim the key in
    // between (in-progress cannot happen here); a create that throws stores no key.
    const created = this.store(article);
    this.keys.set(claim.key, {
      fingerprint: claim.fingerprint,
      storedAt: article.createdAt,
      article: structuredClone(created),
    });
    return { outcome: 'created', article: created };
  }

  async deleteExpiredKeys(upTo: Date, limit: number): Promise<number> {
    let removed = 0;
    for (const [key, record] of this.keys) {
      if (removed === limit) break;
      if (record.storedAt <= upTo) {
        this.keys.delete(key);
        removed++;
      }
    }
    return removed;
  }

  /** Synchronous, so that a keyed create checks and writes without yielding. */
  private store(article: NewArticle): Article {
    this.checkReferencedIds('tag', article.tags);
    this.checkReferencedIds('category', article.categories);
    const slug = this.freeSlug(article.slug);
    const tagIds = this.resolve('tag', article.tags);
    const categoryIds = this.resolve('category', article.categories);
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
    };
    this.articles.set(stored.id, stored);
    this.takeSlug(slug, stored.id);
    this.writes++;
    return this.toArticle(stored);
  }

  /** The slug a create stores: the one given, or the base or its smallest free suffix. */
  private freeSlug(request: SlugRequest): string {
    if (!this.idsBySlug.has(request.slug)) return request.slug;
    if (request.given) throw new SlugTakenError(request.slug);
    for (let n = 2; ; n++) {
      const [candidate] = slugCandidates(request.slug, n, 1) as [string];
      if (!this.idsBySlug.has(candidate)) return candidate;
    }
  }

  /** Article `id` now has `slug`: an earlier slug of the same text stops leading elsewhere. */
  private takeSlug(slug: string, id: number): void {
    this.idsBySlug.set(slug, id);
    this.idsByEarlierSlug.delete(slug);
  }

  async update(id: number, changes: ArticleChanges, expected?: ExpectedVersions): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    checkVersion(current, expected);
    const slug = changes.slug ?? current.slug;
    const holder = this.idsBySlug.get(slug);
    if (holder !== undefined && holder !== id) throw new SlugTakenError(slug);
    this.checkReferencedIds('tag', changes.tags ?? []);
    this.checkReferencedIds('category', changes.categories ?? []);
    const tagIds = changes.tags ? this.resolve('tag', changes.tags) : current.tagIds;
    const categoryIds = changes.categories ? this.resolve('category', changes.categories) : current.categoryIds;
    // updatedAt never moves back, as on the SQL adapters (see the port).
    const updatedAt = new Date(Math.max(current.updatedAt.getTime(), changes.updatedAt.getTime()));
    const version = current.version + 1;
    const search = { ...current.search, ...searchableTextOf(changes.fields) };
    this.keepRevision(current, changes.updatedAt);
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
    if (slug !== current.slug) {
      this.idsBySlug.delete(current.slug);
      this.takeSlug(slug, id);
      this.idsByEarlierSlug.set(current.slug, id);
    }
    this.writes++;
    return this.toArticle(updated);
  }

  async delete(id: number, at: Date, expected?: ExpectedVersions): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    checkVersion(current, expected);
    this.keepRevision(current, at);
    this.articles.delete(id);
    // Its slug and its earlier slugs are free again, as the SQL adapters' cascade makes them.
    this.idsBySlug.delete(current.slug);
    for (const [slug, holder] of this.idsByEarlierSlug) if (holder === id) this.idsByEarlierSlug.delete(slug);
    this.writes++;
    return this.toArticle(current);
  }

  async findById(id: number): Promise<Article | null> {
    const stored = this.articles.get(id);
    return stored ? this.toArticle(stored) : null;
  }

  async restore(id: number, revision: number, at: Date, expected?: ExpectedVersions): Promise<Article> {
    const kept = this.revisions.get(id)?.find((candidate) => candidate.revision === revision);
    if (!kept) throw new RevisionNotFoundError(id, revision);
    const current = this.articles.get(id);
    // A deleted article is at no version: a condition on one, `*` included, fails.
    if (expected && (!current || !allowsVersion(expected, current.version))) throw new ArticleChangedError(id);
    const target = kept.article;
    const holder = this.idsBySlug.get(target.slug);
    if (holder !== undefined && holder !== id) throw new SlugTakenError(target.slug);
    const revisions = this.revisions.get(id) ?? [];
    // A deleted article's last version is in the revision its delete kept: the next one is new.
    const lastVersion = current?.version ?? Math.max(...revisions.map((kept) => kept.article.version));
    const lastUpdatedAt = current?.updatedAt ?? (revisions[revisions.length - 1] as ArticleRevision).article.updatedAt;
    if (current) this.keepRevision(current, at);
    const restored: StoredArticle = {
      id,
      title: target.title,
      description: target.description,
      content: target.content,
      featured: target.featured,
      publishedAt: target.publishedAt,
      slug: target.slug,
      tagIds: target.tags.map((term) => term.id),
      categoryIds: target.categories.map((term) => term.id),
      createdAt: current?.createdAt ?? target.createdAt,
      updatedAt: new Date(Math.max(at.getTime(), lastUpdatedAt.getTime())),
      version: lastVersion + 1,
      search: searchableTextOf(target),
    };
    if (current && current.slug !== target.slug) {
      this.idsBySlug.delete(current.slug);
      this.idsByEarlierSlug.set(current.slug, id);
    }
    this.takeSlug(target.slug, id);
    this.articles.set(id, restored);
    // A deleted article comes back among the others in id order (lists walk the map in its order).
    if (!current) this.reorderById();
    this.writes++;
    return this.toArticle(restored);
  }

  async listRevisions(id: number, page: RevisionsPage): Promise<ArticleRevision[] | null> {
    const revisions = this.revisions.get(id);
    if (!revisions) return this.articles.has(id) ? [] : null;
    const newestFirst = revisions.filter((kept) => page.before === undefined || kept.revision < page.before).reverse();
    return structuredClone(newestFirst.slice(0, page.limit ?? newestFirst.length));
  }

  async deleteExpiredRevisions(upTo: Date, limit: number): Promise<number> {
    let removed = 0;
    for (const [id, revisions] of this.revisions) {
      const kept = revisions.filter((revision) => revision.replacedAt > upTo || removed++ >= limit);
      if (kept.length === 0) this.revisions.delete(id);
      else this.revisions.set(id, kept);
    }
    return Math.min(removed, limit);
  }

  /** The article as it is, as its next revision, replaced at `at`. */
  private keepRevision(current: StoredArticle, at: Date): void {
    const revisions = this.revisions.get(current.id) ?? [];
    const last = revisions[revisions.length - 1];
    revisions.push({ revision: (last?.revision ?? 0) + 1, replacedAt: at, article: this.toArticle(current) });
    this.revisions.set(current.id, revisions);
  }

  private reorderById(): void {
    const entries = [...this.articles.entries()].sort(([a], [b]) => a - b);
    this.articles.clear();
    for (const [id, article] of entries) this.articles.set(id, article);
  }

  async findBySlug(slug: string): Promise<SlugLookup | null> {
    const id = this.idsBySlug.get(slug);
    const current = id === undefined ? undefined : this.articles.get(id);
    if (current) return { found: 'current', article: this.toArticle(current) };
    const earlierId = this.idsByEarlierSlug.get(slug);
    const moved = earlierId === undefined ? undefined : this.articles.get(earlierId);
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
    let latest = -Infinity;
    for (const article of this.articles.values()) {
      const at = article.publishedAt?.getTime();
      if (at !== undefined && at <= moment.getTime() && at > latest) latest = at;
    }
    return `${this.versionPrefix}${this.writes}/${latest}`;
  }

  /**
   * The visible articles the filter matches, in its order: by id ascending (a Map iterates in
   * insertion order), or newest first (a sorted copy: this store is for tests and trials).
   */
  private *visibleMatching(filter: VisibleArticlesFilter): Generator<Article> {
    const tagId = filter.tagName === undefined ? undefined : (this.termIdsByName.tag.get(filter.tagName) ?? null);
    const categoryId =
      filter.categoryName === undefined ? undefined : (this.termIdsByName.category.get(filter.categoryName) ?? null);
    const afterId = filter.afterId ?? 0;
    const moment = filter.moment.getTime();
    const { before } = filter;
    const inOrder =
      filter.order === 'newest'
        ? [...this.articles.values()].sort(
            (a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0) || b.id - a.id,
          )
        : this.articles.values();
    // A walk in id order that a reorder (reorderById) starts over yields no article twice.
    let lastId = 0;
    for (const article of inOrder) {
      if (filter.order !== 'newest') {
        if (article.id <= lastId) continue;
        lastId = article.id;
      }
      const publishedAt = article.publishedAt?.getTime();
      if (publishedAt === undefined || publishedAt > moment) continue;
      if (filter.order === 'newest') {
        const at = before?.publishedAt.getTime();
        if (before && at !== undefined && (publishedAt > at || (publishedAt === at && article.id >= before.id)))
          continue;
      } else if (article.id <= afterId) continue;
      if (filter.featured !== undefined && article.featured !== filter.featured) continue;
      if (tagId !== undefined && (tagId === null || !article.tagIds.includes(tagId))) continue;
      if (categoryId !== undefined && (categoryId === null || !article.categoryIds.includes(categoryId))) continue;
      if (filter.foldedQuery !== undefined && !containsFolded(article.search, filter.foldedQuery)) continue;
      yield this.toArticle(article);
    }
  }

  async listTerms(kind: TermKind): Promise<Term[]> {
    return sortTermsByName([...this.terms[kind].values()]).map((term) => ({ ...term }));
  }

  /** Runs before anything is written, so that a failing reference leaves no trace. */
  private checkReferencedIds(kind: TermKind, references: readonly TermReference[]): void {
    for (const reference of references) {
      if (isReferenceById(reference) && !this.terms[kind].has(reference.id)) {
        throw new UnknownReferenceError(kind, reference.id);
      }
    }
  }

  /** The ids to link, creating the named terms that are new. */
  private resolve(kind: TermKind, references: readonly TermReference[]): string[] {
    const terms = this.terms[kind];
    const idsByName = this.termIdsByName[kind];
    const ids = references.map((reference) => {
      if (isReferenceById(reference)) return reference.id;
      const existingId = idsByName.get(reference.name);
      if (existingId) return existingId;
      const created: Term = { id: newTermId(), name: reference.name, description: reference.description };
      terms.set(created.id, created);
      idsByName.set(created.name, created.id);
      return created.id;
    });
    return [...new Set(ids)];
  }

  private toArticle(stored: StoredArticle): Article {
    const { tagIds, categoryIds, search: _search, ...rest } = stored;
    return {
      ...rest,
      tags: this.termsOf('tag', tagIds),
      categories: this.termsOf('category', categoryIds),
      publishedAt: stored.publishedAt && new Date(stored.publishedAt),
      createdAt: new Date(stored.createdAt),
      updatedAt: new Date(stored.updatedAt),
    };
  }

  private termsOf(kind: TermKind, ids: readonly string[]): Term[] {
    const terms = this.terms[kind];
    return sortTermsByName(ids.map((id) => ({ ...(terms.get(id) as Term) })));
  }
}

function checkVersion(current: StoredArticle, expected: ExpectedVersions | undefined): void {
  if (!allowsVersion(expected, current.version)) throw new ArticleChangedError(current.id);
}
