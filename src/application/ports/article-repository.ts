import type {
  Article,
  ArticleFields,
  ArticleRevision,
  Author,
  PublicationChange,
  Term,
  TermKind,
  TermReference,
} from '../../domain';

/**
 * The slug a write asks for. `given`: exactly this one, or SlugTakenError when another current
 * article has it. Otherwise `slug` is the base made from the title: the storage stores it, or
 * when another current article has it the smallest free `-2`, `-3`, … (slugWithSuffix), and
 * stays right when concurrent creates make the same base.
 */
export interface SlugRequest {
  readonly slug: string;
  readonly given: boolean;
}

export interface NewArticle {
  readonly fields: ArticleFields;
  readonly publishedAt: Date | null;
  readonly slug: SlugRequest;
  readonly tags: readonly TermReference[];
  readonly categories: readonly TermReference[];
  /** Also the first `updatedAt`. */
  readonly createdAt: Date;
  /** The author of the key that creates it (Article.author), as the key carries it; null without a key. */
  readonly author: Author | null;
}

export interface ArticleChanges {
  readonly fields: Partial<ArticleFields>;
  /** Absent: publishedAt stays. */
  readonly publication?: PublicationChange;
  /**
   * A new slug (given by the client: SlugTakenError when another current article has it). The
   * slug it replaces becomes an earlier slug of the article, which leads to it until another
   * article takes it; taking an earlier slug of any article ends that redirect.
   */
  readonly slug?: string;
  /** When present, replaces the whole set of links; when absent, links stay as they are. */
  readonly tags?: readonly TermReference[];
  readonly categories?: readonly TermReference[];
  /**
   * The clock's reading. The stored updatedAt becomes the later of it and the stored one, so it
   * never moves back, even when concurrent updates commit out of their clock order.
   */
  readonly updatedAt: Date;
}

/** Where an article stands in `newest` order: publishedAt descending, then id descending. */
export interface NewestPosition {
  readonly publishedAt: Date;
  readonly id: number;
}

/**
 * Which visible articles a list holds: those published at `moment` (publishedAt at or before it:
 * the moment the read started, told by the caller's clock, so that every storage and replica
 * agree on it), linked to the tag named `tagName` and to the category named `categoryName` when
 * those are given (exact names; an unknown name matches nothing), `featured` or not when it is
 * given, written by the author whose slug is `author` when it is given, and whose title,
 * description or content contains `foldedQuery` when it is given: a
 * literal substring of the text folded by `foldForSearch` (the query is folded the same way by
 * the caller), never spanning two fields.
 * In `id` order (the default), those whose id is greater than `afterId`, by id ascending. In
 * `newest` order, publishedAt descending then id descending, those after `before` in that order.
 */
export interface VisibleArticlesFilter {
  readonly moment: Date;
  readonly order?: 'id' | 'newest';
  readonly afterId?: number;
  readonly before?: NewestPosition;
  readonly tagName?: string;
  readonly categoryName?: string;
  readonly featured?: boolean;
  readonly foldedQuery?: string;
  /** An author's slug: only that author's articles (an unknown slug matches nothing). */
  readonly author?: string;
}

/** A page of the matching visible articles in the filter's order: the first `limit`. */
export interface VisibleArticlesPage extends VisibleArticlesFilter {
  readonly limit: number;
}

/**
 * Articles per chunk of a stream: memory holds about one chunk (under 200 KB of JSON) per list
 * being answered, whatever the number of articles. Smaller than it was (500): what a chunk holds
 * lives past the young generation's collections and is promoted, and 200 kept the 100,000-article
 * list's peak RSS 5 to 10 MB lower in the same time (docs/adr/0053).
 */
export const STREAM_CHUNK_SIZE = 200;

/**
 * A conditional write (HTTP If-Match): it applies only while the article's stored version is
 * one of `versions`, or with `anyVersion` (If-Match: *) while the article exists at all;
 * otherwise it throws ArticleChangedError and writes nothing. The check and the write are atomic.
 */
export interface ExpectedVersions {
  readonly versions: readonly number[];
  readonly anyVersion?: boolean;
}

/** Whether an article stored at `version` meets the condition (none: any write goes). */
export function allowsVersion(expected: ExpectedVersions | undefined, version: number): boolean {
  return !expected || expected.anyVersion === true || expected.versions.includes(version);
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

/** What a slug leads to: the article whose slug it is, or the current slug of the article that had it before. */
export type SlugLookup =
  | { readonly found: 'current'; readonly article: Article }
  | { readonly found: 'earlier'; readonly id: number; readonly slug: string };

/**
 * Who may write is decided on the article as the write finds it, under the write's own lock: the
 * storage runs the guard first (before If-Match), and a guard that throws writes nothing.
 */
export type WriteGuard = (current: Article) => void;

/** Whether a revision's article, as it was until `replacedAt`, is one a caller looks for. */
export type RevisionTest = (article: Article, replacedAt: Date) => boolean;

/** A page of an article's revisions, newest first: the first `limit` numbered below `before`. */
export interface RevisionsPage {
  readonly limit?: number;
  readonly before?: number;
}

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
 * is created and grows by one with each update. An update, a delete and a restore of an existing
 * article store the article as it was just before as its next revision, in the same atomic
 * write.
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
  /**
   * Returns null, and writes nothing, when no article has this id. `guard` runs on the article as
   * it is, then `expected`; the article as it was becomes a revision replaced at `changes.updatedAt`.
   */
  update(
    id: number,
    changes: ArticleChanges,
    expected: ExpectedVersions | undefined,
    guard: WriteGuard,
  ): Promise<Article | null>;
  /**
   * Deletes the article and its links (its terms stay; its revisions too, the one replaced at
   * `at` included); answers it as it was, or null when none.
   */
  delete(id: number, at: Date, expected: ExpectedVersions | undefined, guard: WriteGuard): Promise<Article | null>;
  /**
   * Makes article `id` what its revision `revision` holds (fields, publishedAt, slug, featured,
   * links), createdAt kept, updatedAt the later of `at` and the stored one, a new version; a
   * deleted article comes back with its id. The state it replaces becomes a revision (none for
   * a deleted article). RevisionNotFoundError when no such revision is kept; SlugTakenError when
   * another current article has its slug; ArticleChangedError when `expected` is given and the
   * article is not at one of those versions (a deleted article is at none).
   */
  restore(id: number, revision: number, at: Date, expected?: ExpectedVersions): Promise<Article>;
  /** The revisions of article `id`, newest first; null when no article has this id or had it (no revision). */
  listRevisions(id: number, page: RevisionsPage): Promise<ArticleRevision[] | null>;
  /**
   * The latest `replacedAt` after `after` and at or before `upTo` among the revisions of every
   * article, deleted ones included, whose article `test` accepts; null when none does. Reads the
   * revisions newest first and stops at the first accepted (a feed's last change, ReadFeed).
   */
  latestReplacement(after: Date, upTo: Date, test: RevisionTest): Promise<Date | null>;
  /** Removes at most `limit` revisions replaced at or before `upTo`; answers how many it removed. */
  deleteExpiredRevisions(upTo: Date, limit: number): Promise<number>;
  findById(id: number): Promise<Article | null>;
  /** The article whose slug this is, or the one that had it earlier; null when neither. */
  findBySlug(slug: string): Promise<SlugLookup | null>;
  /**
   * One page of visible articles; every statement it sends is bounded by `limit`, not by the
   * table. With `onVersion`, the page's version is read first, on the same node (one more
   * statement).
   */
  listVisible(page: VisibleArticlesPage, onVersion?: VersionObserver): Promise<Article[]>;
  /**
   * Every visible article matching the filter, in its order, in chunks of at most
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
   * A token of the stored data as the storage node that answers sees it now, as lists read at
   * `moment` see it: equal tokens mean that every article and term is as it was when the other
   * was taken, and that the same articles are published (no scheduled time arrived between the
   * two moments). Any committed write changes it; it may change without a write too (a token is
   * never reused for other data).
   * Tokens of one database are equal whichever process or connection took them, except on
   * SQLite and in memory, whose tokens are one repository's own.
   */
  visibleVersion(moment: Date): Promise<ListVersion>;
  /** Every tag or category, ordered by name. */
  listTerms(kind: TermKind): Promise<Term[]>;
}
