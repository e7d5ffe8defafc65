import type { Article, ArticleFields, Term, TermKind, TermReference } from '../../domain';

export interface NewArticle {
  readonly fields: ArticleFields;
  readonly tags: readonly TermReference[];
  readonly categories: readonly TermReference[];
  /** Also the first `updatedAt`. */
  readonly createdAt: Date;
}

export interface ArticleChanges {
  readonly fields: Partial<ArticleFields>;
  /** When present, replaces the whole set of links; when absent, links stay as they are. */
  readonly tags?: readonly TermReference[];
  readonly categories?: readonly TermReference[];
  /**
   * The clock's reading. The stored updatedAt becomes the later of it and the stored one, so it
   * never moves back, even when concurrent updates commit out of their clock order.
   */
  readonly updatedAt: Date;
}

export interface ArticleListFilter {
  readonly includeInvisible: boolean;
}

/**
 * Storage of articles with their tags and categories. Every write is one atomic unit: when
 * a reference fails (UnknownReferenceError), nothing of that write is stored. Name references
 * find or create the term, and stay correct when concurrent writes name the same new term.
 * Terms in an article are ordered by name (code points); lists are ordered by id.
 * Storage failures surface as StorageUnavailableError when the storage cannot be reached.
 */
export interface ArticleRepository {
  create(article: NewArticle): Promise<Article>;
  /** Returns null, and writes nothing, when no article has this id. */
  update(id: number, changes: ArticleChanges): Promise<Article | null>;
  findById(id: number): Promise<Article | null>;
  list(filter: ArticleListFilter): Promise<Article[]>;
  /** Every tag or category, ordered by name. */
  listTerms(kind: TermKind): Promise<Term[]>;
}
