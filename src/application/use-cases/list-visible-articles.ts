import { type Article, foldForSearch, StorageUnavailableError } from '../../domain';
import type { ArticleRepository, VisibleArticlesFilter } from '../ports/article-repository';

export interface ListVisibleArticlesInput {
  /** Only articles with a greater id. */
  after?: number;
  /** Only articles linked to the tag / category of this exact name. */
  tag?: string;
  category?: string;
  /** Only articles whose title, description or content contains this text, ignoring case. */
  q?: string;
}

export interface VisibleArticlesPageInput extends ListVisibleArticlesInput {
  limit: number;
}

/**
 * The whole list is read in pages of this many articles by id: memory holds one page at a time
 * whatever the number of articles, and each statement stays bounded.
 */
export const LIST_BATCH_SIZE = 500;

/**
 * How often a batch after the first is read again when the storage fails. By then the answer
 * has begun and cannot turn into a 503, so a retry (reads are safe to repeat, and the next batch
 * starts after the last id sent) is what still gives the client a whole list; a storage that
 * keeps failing cuts the answer as before. The waits (50, 100, 200 ms) let a pool drop the
 * connections that died together: on Debian's PostgreSQL 15 with every session ended every
 * 100 ms, two immediate retries still cut 2 lists in a run.
 */
export const LATER_BATCH_RETRIES = 3;
const FIRST_RETRY_WAIT_MS = 50;

/** Visible articles by id ascending, as one page or as every one of them in batches. */
export class ListVisibleArticles {
  constructor(private readonly articles: ArticleRepository) {}

  page(input: VisibleArticlesPageInput): Promise<Article[]> {
    return this.articles.listVisible({ ...visibleArticlesFilter(input), limit: input.limit });
  }

  /**
   * Every matching article, one batch at a time; the caller may stop early (a client that went
   * away), and no further batch is read. An article created meanwhile with a greater id may be
   * included; each article is yielded at most once.
   */
  async *batches(input: ListVisibleArticlesInput = {}): AsyncGenerator<Article[]> {
    let after = input.after;
    for (let retries = 0; ; retries = LATER_BATCH_RETRIES) {
      const batch = await this.pageRetrying({ ...input, after, limit: LIST_BATCH_SIZE }, retries);
      if (batch.length > 0) yield batch;
      if (batch.length < LIST_BATCH_SIZE) return;
      after = (batch[batch.length - 1] as Article).id;
    }
  }

  private async pageRetrying(input: VisibleArticlesPageInput, retries: number): Promise<Article[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.page(input);
      } catch (error) {
        if (!(error instanceof StorageUnavailableError) || attempt >= retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_WAIT_MS * 2 ** attempt));
      }
    }
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
export function visibleArticlesFilter(input: ListVisibleArticlesInput): VisibleArticlesFilter {
  return {
    afterId: input.after,
    tagName: input.tag,
    categoryName: input.category,
    foldedQuery: input.q === undefined ? undefined : foldForSearch(input.q),
  };
}
