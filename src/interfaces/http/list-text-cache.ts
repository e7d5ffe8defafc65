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
  private readonly answers = new Map<string, Buffer>();
  private bytes = 0;
  /** Characters of each query's last whole read, oldest first; at most QUERIES_REMEMBERED. */
  private readonly lastLengths = new Map<string, number>();

  constructor(private readonly maxBytes: number) {}

  /**
   * Whether an answer of this query can be kept now: its last read fitted the bound. When not,
   * asking the storage for its version would be a statement for nothing.
   */
  mayHold(query: string): boolean {
    const lastLength = this.lastLengths.get(query);
    return lastLength !== undefined && lastLength <= this.maxBytes;
  }

  /** The kept answer body for this query at this version. */
  find(version: ListVersion, query: string): Buffer | undefined {
    const key = keyOf(version, query);
    const body = this.answers.get(key);
    if (body) {
      // Most recently used last: Map keeps insertion order.
      this.answers.delete(key);
      this.answers.set(key, body);
    }
    return body;
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
          this.noteLength(query, length);
          if (texts && next.value !== undefined) this.keep(keyOf(next.value, query), wrappedListText(texts));
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

  private noteLength(query: string, length: number): void {
    this.lastLengths.delete(query);
    this.lastLengths.set(query, length);
    if (this.lastLengths.size > QUERIES_REMEMBERED) {
      const [oldest] = this.lastLengths.keys();
      this.lastLengths.delete(oldest as string);
    }
  }

  private keep(key: string, text: string): void {
    const body = Buffer.from(text);
    if (body.length > this.maxBytes) return;
    const replaced = this.answers.get(key);
    if (replaced) this.bytes -= replaced.length;
    this.answers.delete(key);
    for (const [oldest, answer] of this.answers) {
      if (this.bytes + body.length <= this.maxBytes) break;
      this.answers.delete(oldest);
      this.bytes -= answer.length;
    }
    this.answers.set(key, body);
    this.bytes += body.length;
  }
}

/** Queries whose last length is remembered: `q` lets clients ask for any number of them. */
const QUERIES_REMEMBERED = 1_000;

/** The query is JSON text, which holds no raw newline: the last one ends the version. */
const keyOf = (version: ListVersion, query: string) => `${version}\n${query}`;
