import type {
  ArticleChanges,
  ArticleRepository,
  ExpectedVersions,
  IdempotencyClaim,
  KeyedCreateOutcome,
  NewArticle,
  VisibleArticlesPage,
} from '../../../application';
import {
  type Article,
  ArticleChangedError,
  type ArticleFields,
  isReferenceById,
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
    };
    this.articles.set(stored.id, stored);
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
    const updated: StoredArticle = { ...current, ...changes.fields, tagIds, categoryIds, updatedAt, version };
    this.articles.set(id, updated);
    return this.toArticle(updated);
  }

  async delete(id: number, expected?: ExpectedVersions): Promise<Article | null> {
    const current = this.articles.get(id);
    if (!current) return null;
    checkVersion(current, expected);
    this.articles.delete(id);
    return this.toArticle(current);
  }

  async findById(id: number): Promise<Article | null> {
    const stored = this.articles.get(id);
    return stored ? this.toArticle(stored) : null;
  }

  async listVisible(page: VisibleArticlesPage): Promise<Article[]> {
    const tagId = page.tagName === undefined ? undefined : (this.termIdsByName.tag.get(page.tagName) ?? null);
    const categoryId =
      page.categoryName === undefined ? undefined : (this.termIdsByName.category.get(page.categoryName) ?? null);
    const afterId = page.afterId ?? 0;
    const found: Article[] = [];
    // Map iteration follows insertion order, which is id order.
    for (const article of this.articles.values()) {
      if (found.length === page.limit) break;
      if (!article.visible || article.id <= afterId) continue;
      if (tagId !== undefined && (tagId === null || !article.tagIds.includes(tagId))) continue;
      if (categoryId !== undefined && (categoryId === null || !article.categoryIds.includes(categoryId))) continue;
      found.push(this.toArticle(article));
    }
    return found;
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
    const { tagIds, categoryIds, ...rest } = stored;
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
