import { LRUCache } from 'lru-cache';
import type { ListVersion } from '../../application';
import { wrappedListText } from './streamed-list';

/**
 * The answers of recent whole lists (GET /article without `limit`), each under the storage
 * version it was read at and its query. A list asks the storage for its version first (one
 * short statement) and, when an answer is kept for that version and query, sends it instead of
 * reading every article again: any committed write, by this instance or another, changes the
 * version. Bounded by bytes; the least recently used answers go first. A query's answer is
 * copied only when its previous read fitted the bound, so that a list larger than the bound
 * (100,000 articles are 68 MB) is streamed as always, holding no more memory than without it.
 */
export class ListTextCache {
  /**
   * Bounded by the bytes of the answers; an answer larger than the whole bound is never kept
   * (lru-cache's maxEntrySize defaults to maxSize). `get` makes an answer the most recently used.
   */
  private readonly answers: LRUCache<string, Buffer>;
  /**
   * Characters of each query's last whole read; at most QUERIES_REMEMBERED, the least recently
   * noted going first. Read with `peek`: asking does not make a query recent, noting it does.
   */
  private readonly lastLengths = new LRUCache<string, number>({ max: QUERIES_REMEMBERED });

  /** `maxBytes` is positive: with LIST_CACHE_SIZE=0 the composition root makes no cache at all. */
  constructor(private readonly maxBytes: number) {
    this.answers = new LRUCache({ maxSize: maxBytes, sizeCalculation: (body) => body.length });
  }

  /**
   * Whether an answer of this query can be kept now: its last read fitted the bound. When not,
   * asking the storage for its version would be a statement for nothing.
   */
  mayHold(query: string): boolean {
    const lastLength = this.lastLengths.peek(query);
    return lastLength !== undefined && lastLength <= this.maxBytes;
  }

  /** The kept answer body for this query at this version. */
  find(version: ListVersion, query: string): Buffer | undefined {
    return this.answers.get(keyOf(version, query));
  }

  /**
   * The batches, passed on unchanged. When they end with a version (one stream read them all)
   * and their answer fits the bound, as the query's previous read did, it is kept under that
   * version: the stream's data is that version's or newer, so a later list finds it only while
   * nothing has changed since.
   */
  async *keeping(
    query: string,
    batches: AsyncGenerator<string[], ListVersion | undefined>,
  ): AsyncGenerator<string[], ListVersion | undefined> {
    let texts: string[] | null = this.mayHold(query) ? [] : null;
    let length = 0;
    try {
      for (;;) {
        const next = await batches.next();
        if (next.done) {
          this.lastLengths.set(query, length);
          if (texts && next.value !== undefined) {
            // Bytes, counted once the text is whole: characters only bounded them from below.
            this.answers.set(keyOf(next.value, query), Buffer.from(wrappedListText(texts)));
          }
          return next.value;
        }
        for (const text of next.value) length += text.length;
        // Characters, a lower bound of the bytes: past the bound the texts are let go at once.
        if (length > this.maxBytes) texts = null;
        texts?.push(...next.value);
        yield next.value;
      }
    } finally {
      await batches.return(undefined);
    }
  }
}

/** Queries whose last length is remembered: `q` lets clients ask for any number of them. */
const QUERIES_REMEMBERED = 1_000;

/** The query is JSON text, which holds no raw newline: the last one ends the version. */
const keyOf = (version: ListVersion, query: string) => `${version}\n${query}`;
