import { randomUUID } from 'node:crypto';
import {
  type ArticleChanges,
  type ArticleRepository,
  type ExpectedVersions,
  type IdempotencyClaim,
  type KeyedCreateOutcome,
  type ListVersion,
  type NewArticle,
  STREAM_CHUNK_SIZE,
  type VersionObserver,
  type VisibleArticlesFilter,
  type VisibleArticlesPage,
} from '../../../application';
import {
  type Article,
  ArticleChangedError,
  type ArticleFields,
  containsFolded,
  isReferenceById,
  type SearchableText,
  searchableTextOf,
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
    const tagIds = this.resolve('tag', article.tags);
    const categoryIds = this.resolve('category', article.categories);
    const stored: StoredArticle = {
      ...article.fields,
      id: ++this.lastId,
      tagIds,
      categoryIds,
      createdAt: article.createdAt,
      updatedAt: article.createdAt,
      version: 1,
      search: searchableTextOf(article.fields),
    };
    this.articles.set(stored.id, stored);
    this.writes++;
    return this.toArticle(stored);
  }

  async update(id: number, changes: ArticleChanges, expected?: ExpectedVersions): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    checkVersion(current, expected);
    this.checkReferencedIds('tag', changes.tags ?? []);
    this.checkReferencedIds('category', changes.categories ?? []);
    const tagIds = changes.tags ? this.resolve('tag', changes.tags) : current.tagIds;
    const categoryIds = changes.categories ? this.resolve('category', changes.categories) : current.categoryIds;
    // updatedAt never moves back, as on the SQL adapters (see the port).
    const updatedAt = new Date(Math.max(current.updatedAt.getTime(), changes.updatedAt.getTime()));
    const version = current.version + 1;
    const search = { ...current.search, ...searchableTextOf(changes.fields) };
    const updated: StoredArticle = { ...current, ...changes.fields, tagIds, categoryIds, updatedAt, version, search };
    this.articles.set(id, updated);
    this.writes++;
    return this.toArticle(updated);
  }

  async delete(id: number, expected?: ExpectedVersions): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    checkVersion(current, expected);
    this.articles.delete(id);
    this.writes++;
    return this.toArticle(current);
  }

  async findById(id: number): Promise<Article | null> {
    const stored = this.articles.get(id);
    return stored ? this.toArticle(stored) : null;
  }

  async listVisible(page: VisibleArticlesPage, onVersion?: VersionObserver): Promise<Article[]> {
    onVersion?.(await this.visibleVersion());
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
    const version = await this.visibleVersion();
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

  async visibleVersion(): Promise<ListVersion> {
    return this.versionPrefix + this.writes;
  }

  /** The visible articles the filter matches, by id ascending (a Map iterates in insertion order). */
  private *visibleMatching(filter: VisibleArticlesFilter): Generator<Article> {
    const tagId = filter.tagName === undefined ? undefined : (this.termIdsByName.tag.get(filter.tagName) ?? null);
    const categoryId =
      filter.categoryName === undefined ? undefined : (this.termIdsByName.category.get(filter.categoryName) ?? null);
    const afterId = filter.afterId ?? 0;
    for (const article of this.articles.values()) {
      if (!article.visible || article.id <= afterId) continue;
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
  if (expected && !expected.versions.includes(current.version)) throw new ArticleChangedError(current.id);
}
