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

/**
 * Which visible articles a list holds: those whose id is greater than `afterId`, linked to the
 * tag named `tagName` and to the category named `categoryName` when those are given (exact
 * names; an unknown name matches nothing), and whose title, description or content contains
 * `foldedQuery` when it is given: a literal substring of the text folded by `foldForSearch`
 * (the query is folded the same way by the caller), never spanning two fields.
 */
export interface VisibleArticlesFilter {
  readonly afterId?: number;
  readonly tagName?: string;
  readonly categoryName?: string;
  readonly foldedQuery?: string;
}

/** A page of the matching visible articles by id ascending: the first `limit`. */
export interface VisibleArticlesPage extends VisibleArticlesFilter {
  readonly limit: number;
}

/**
 * Articles per chunk of a stream: memory holds about one chunk (a few hundred KB of JSON) per
 * list being answered, whatever the number of articles.
 */
export const STREAM_CHUNK_SIZE = 500;

/**
 * A conditional write (HTTP If-Match): it applies only while the article's stored version is
 * one of `versions`; otherwise it throws ArticleChangedError and writes nothing. The check and
 * the write are atomic.
 */
export interface ExpectedVersions {
  readonly versions: readonly number[];
}

/** A create under an Idempotency-Key: the key's record is stored in the same transaction as the article. */
export interface IdempotencyClaim {
  readonly key: string;
  /** Digest of the request: the same request gives the same fingerprint. */
  readonly fingerprint: string;
  /** A record stored at or before this instant is expired: the key is claimed anew, as if unknown. */
  readonly expiredUpTo: Date;
}

/**
 * What a create under a key found: it created the article and stored the key with it; or the key
 * has a live record (its fingerprint and the article as it was created), and nothing was written;
 * or another create holds the key and has not committed yet, and nothing was written.
 */
export type KeyedCreateOutcome =
  | { readonly outcome: 'created'; readonly article: Article }
  | { readonly outcome: 'stored'; readonly fingerprint: string; readonly article: Article }
  | { readonly outcome: 'in-progress' };

/** Opaque; compared for equality only (ArticleRepository.visibleVersion). */
export type ListVersion = string;

/**
 * Told the version of the data a read is about to answer, before it answers any of it: the data
 * is at that version or newer, never older, and was read on the same storage node. Called again
 * when the read starts over on another node (the last call counts).
 */
export type VersionObserver = (version: ListVersion) => void;

/**
 * Storage of articles with their tags and categories. Every write is one atomic unit: when
 * a reference fails (UnknownReferenceError), nothing of that write is stored. Name references
 * find or create the term, and stay correct when concurrent writes name the same new term.
 * Terms in an article are ordered by name (code points). An article's `version` is 1 when it
 * is created and grows by one with each update.
 * Storage failures surface as StorageUnavailableError when the storage cannot be reached.
 */
export interface ArticleRepository {
  create(article: NewArticle): Promise<Article>;
  /**
   * The create and the key's record are one atomic write, and the claim of the key is arbitrated
   * by the storage (never read-then-insert): of concurrent creates under one key, exactly one
   * creates. A failing create (UnknownReferenceError, storage failure) stores neither.
   */
  createWithKey(article: NewArticle, claim: IdempotencyClaim): Promise<KeyedCreateOutcome>;
  /** Removes at most `limit` key records stored at or before `upTo`; answers how many it removed. */
  deleteExpiredKeys(upTo: Date, limit: number): Promise<number>;
  /** Returns null, and writes nothing, when no article has this id. */
  update(id: number, changes: ArticleChanges, expected?: ExpectedVersions): Promise<Article | null>;
  /** Deletes the article and its links (its terms stay); answers it as it was, or null when none. */
  delete(id: number, expected?: ExpectedVersions): Promise<Article | null>;
  findById(id: number): Promise<Article | null>;
  /**
   * One page of visible articles; every statement it sends is bounded by `limit`, not by the
   * table. With `onVersion`, the page's version is read first, on the same node (one more
   * statement).
   */
  listVisible(page: VisibleArticlesPage, onVersion?: VersionObserver): Promise<Article[]>;
  /**
   * Every visible article matching the filter, by id ascending, in chunks of at most
   * STREAM_CHUNK_SIZE, read by one statement (one snapshot on the SQL storages) as the caller
   * asks for them. A caller that stops early closes the generator (`return()`, or leaving a
   * `for await`): the statement and its connection are released then. A storage failure before
   * or between chunks rejects the pending `next()`. Once every chunk is read it returns a
   * version (see visibleVersion) the data read was at, or was newer than: never older; the same
   * version goes to `onVersion` before the first chunk. (Closed early, a generator returns what
   * `return()` was given.)
   */
  streamVisible(
    filter: VisibleArticlesFilter,
    onVersion?: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion | undefined>;
  /**
   * A token of the stored data as the storage node that answers sees it now: equal tokens mean
   * that every article and term is as it was when the other was taken. Any committed write
   * changes it; it may change without a write too (a token is never reused for other data).
   * Tokens of one database are equal whichever process or connection took them, except on
   * SQLite and in memory, whose tokens are one repository's own.
   */
  visibleVersion(): Promise<ListVersion>;
  /** Every tag or category, ordered by name. */
  listTerms(kind: TermKind): Promise<Term[]>;
}
