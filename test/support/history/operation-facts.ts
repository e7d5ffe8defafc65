import type { RequestRecord } from '../load/request-log';

/**
 * What one operation of a history asked for and what its answer showed: the facts the history
 * checker reads, beside the request log's times, status and client (RequestRecord).
 */
export type OperationFacts = CreateFacts | ArticleWriteFacts | ReadFacts;

export interface CreateFacts {
  kind: 'create';
  /** The title sent: how an article whose create got no answer is recognised in the final read. */
  title: string | null;
  /** The Idempotency-Key sent, if any: every attempt with one key is one article at most. */
  key?: string;
  /** The id of a 2xx answer. */
  createdId?: number;
}

/** An update or a delete of a known article: an update may hide it from lists, a delete removes it. */
export interface ArticleWriteFacts {
  kind: 'update' | 'delete';
  articleId: number;
  /** The visibility an update sets: one that sets `true` cannot hide the article. */
  visible?: boolean;
}

export interface ReadFacts {
  kind: 'read';
  /** Set only on a 2xx answer. */
  observed?: Observation;
}

export interface SeenArticle {
  id: number;
  /** The article's version (its ETag `"<id>-<version>"`), when the answer told one. */
  version?: number;
  visible: boolean;
}

/** What a read showed: articles got by id, ids that do not exist, or a list's ids. */
export interface Observation {
  /** Articles a get by id showed, with their version and visibility. */
  present: SeenArticle[];
  /** Ids a get by id showed do not exist (null data). */
  missing: number[];
  listed?: ListedIds;
}

/** A list's answer, as ids only (a whole list holds every article: thousands in a run). */
export interface ListedIds {
  /** The visible articles it showed. */
  ids: number[];
  /** Every visible article with an id in (after, upTo] is in `ids`; none for a filtered list (a search). */
  covers?: { after: number; upTo: number };
}

/**
 * ok: a 2xx answer; failed: a 4xx answer, which the service stores nothing for; unknown: a 5xx
 * or no answer at all, which may or may not have taken effect (a commit whose answer was lost,
 * a 503 from a commit whose wait for the standby was cancelled).
 */
export type Outcome = 'ok' | 'failed' | 'unknown';

export function outcomeOf(record: RequestRecord): Outcome {
  if (record.status === null || record.status >= 500) return 'unknown';
  if (record.status >= 200 && record.status < 300) return 'ok';
  return 'failed';
}
