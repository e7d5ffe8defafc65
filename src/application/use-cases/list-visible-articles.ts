import { type Article, foldForSearch, StorageUnavailableError } from '../../domain';
import { type Backoff, backoffDelays } from '../backoff';
import type {
  ArticleRepository,
  ListVersion,
  NewestPosition,
  VersionObserver,
  VisibleArticlesFilter,
} from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface ListVisibleArticlesInput {
  /** `id` (the default): by id ascending; `newest`: publishedAt descending, then id descending. */
  order?: 'id' | 'newest';
  /** In id order: only articles with a greater id. */
  after?: number;
  /** In newest order: only articles after this position. */
  before?: NewestPosition;
  /** Only featured articles (true) or only the others (false). */
  featured?: boolean;
  /** Only articles linked to the tag / category of this exact name. */
  tag?: string;
  category?: string;
  /** Only articles of the author with this slug (an unknown slug: none). */
  author?: string;
  /** Only articles whose title, description or content contains this text, ignoring case. */
  q?: string;
}

export interface VisibleArticlesPageInput extends ListVisibleArticlesInput {
  limit: number;
}

/**
 * How often in a row the whole list is read on after the storage failed mid-list with nothing
 * sent since. By then the answer has begun and cannot turn into a 503: cutting it is the worst
 * outcome for the client, so a new statement from the last id sent (reads are safe to repeat)
 * is tried again and again, and a stream that sent a chunk before failing renews the count.
 * Only a storage that fails for about 1.5 s with no progress cuts the answer (waits 50, 100,
 * 200, 400, 400, 400 ms), inside the 3 s in which a request is answered while the database
 * misbehaves. Fewer were not enough: with every session ended every 100 ms on a busy machine,
 * three tries in a row all died before their first chunk (lists cut in 2 of 9 runs).
 * A failure before the first chunk is not retried: the client gets its 503.
 */
export const LATER_BATCH_RETRIES = 6;
const LATER_BATCH_BACKOFF: Backoff = { firstMs: 50, maxMs: 400 };
/**
 * A failure that took this long is not retried: the storage was silent (frozen, a host gone),
 * not refusing, and a retry would wait as long again. A list mid-stream when PostgreSQL froze
 * for 10 s answered its last chunk 10.2 s after the one before (the retries each waited the
 * storage's 2 s); now it is cut when its statement gives up, about 2 s after its last chunk.
 */
export const LATER_BATCH_SLOW_FAILURE_MS = 1_000;

/**
 * The articles published at the moment the read starts (the clock's reading, handed to the
 * storage: no job publishes a scheduled article, the read decides), as one page or as every one
 * of them in chunks.
 */
export class ListVisibleArticles {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  /** With `onVersion`, also the version the page was read at (ArticleRepository.listVisible). */
  page(input: VisibleArticlesPageInput, onVersion?: VersionObserver): Promise<Article[]> {
    return this.articles.listVisible(
      { ...visibleArticlesFilter(input, this.clock.now()), limit: input.limit },
      onVersion,
    );
  }

  /**
   * Every matching article, in chunks, from one statement read as the caller asks (the storage's
   * stream); the caller may stop early (a client that went away): the stream is closed and no
   * further chunk is read. After a storage failure mid-list the list goes on with a new stream
   * after the last article yielded, at the same moment (a new snapshot: an article created
   * meanwhile further on may be included); each article is yielded at most once. Returns the storage's version of what
   * one stream read (see ArticleRepository.streamVisible), or undefined when the list took more
   * than one stream. `onVersion` hears the first stream's version before its first chunk: a
   * stream read after a failure reads newer data, so that version stays a lower bound.
   */
  async *batches(
    input: ListVisibleArticlesInput = {},
    onVersion?: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    const moment = this.clock.now();
    let position: { after?: number; before?: NewestPosition } = { after: input.after, before: input.before };
    let started = false;
    let retriesLeft = LATER_BATCH_RETRIES;
    let waits = backoffDelays(LATER_BATCH_BACKOFF);
    for (let streams = 1; ; streams++) {
      const stream = this.articles.streamVisible(
        visibleArticlesFilter({ ...input, ...position }, moment),
        streams === 1 ? onVersion : undefined,
      );
      let progressed = false;
      let askedAt = this.clock.now().getTime();
      try {
        for (;;) {
          const next = await stream.next();
          if (next.done) return streams === 1 ? next.value : undefined;
          started = progressed = true;
          position = positionAfter(input.order, next.value[next.value.length - 1] as Article);
          yield next.value;
          askedAt = this.clock.now().getTime();
        }
      } catch (error) {
        if (progressed) {
          retriesLeft = LATER_BATCH_RETRIES;
          waits = backoffDelays(LATER_BATCH_BACKOFF);
        }
        const failedAfterMs = this.clock.now().getTime() - askedAt;
        if (!started || !(error instanceof StorageUnavailableError) || retriesLeft-- === 0) throw error;
        if (failedAfterMs >= LATER_BATCH_SLOW_FAILURE_MS) throw error;
        await this.clock.sleep(waits.next().value);
      } finally {
        // Closes a stream left early (the caller stopped); a finished or failed one is closed already.
        await stream.return(undefined);
      }
    }
  }

  /** The storage's version of the data now, as lists read now see it (ArticleRepository.visibleVersion). */
  version(): Promise<ListVersion> {
    return this.articles.visibleVersion(this.clock.now());
  }

  /**
   * Every matching article in one array, for callers that need them all at once. The HTTP list
   * and the seed stream `batches()` instead, so that memory stays bounded.
   */
  async execute(input: ListVisibleArticlesInput = {}): Promise<Article[]> {
    const all: Article[] = [];
    for await (const batch of this.batches(input)) all.push(...batch);
    return all;
  }
}

/**
 * The storage's filter for a list's input: the one place where `q` is folded (foldForSearch),
 * so that every storage compares it with text folded the same way.
 */
export function visibleArticlesFilter(input: ListVisibleArticlesInput, moment: Date): VisibleArticlesFilter {
  return {
    moment,
    order: input.order ?? 'id',
    afterId: input.after,
    before: input.before,
    tagName: input.tag,
    categoryName: input.category,
    featured: input.featured,
    author: input.author,
    foldedQuery: input.q === undefined ? undefined : foldForSearch(input.q),
  };
}

/** Where a list goes on after `last`, in its order. */
export function positionAfter(
  order: 'id' | 'newest' | undefined,
  last: Article,
): { after?: number; before?: NewestPosition } {
  if (order !== 'newest') return { after: last.id };
  // A listed article is published: its publishedAt is set.
  return { before: { publishedAt: last.publishedAt as Date, id: last.id } };
}
