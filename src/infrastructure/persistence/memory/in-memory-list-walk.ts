import type { VisibleArticlesFilter } from '../../../application';
import { containsFolded, type SearchableText } from '../../../domain';

/** What a list reads of a stored article. */
export interface ListedArticle {
  readonly id: number;
  readonly publishedAt: Date | null;
  readonly featured: boolean;
  readonly tagIds: readonly string[];
  readonly categoryIds: readonly string[];
  readonly search: SearchableText;
  readonly authorId: string | null;
}

/**
 * The stored articles published at the filter's moment that it matches, in its order: by id
 * ascending (a Map iterates in insertion order), or newest first (a sorted copy: this store is
 * for tests and trials). `termIds`: the ids of the tag and category named by the filter, and
 * the author's id of its slug; null for a name no term (a slug no author) has: nothing matches;
 * undefined when not filtered.
 */
export function* walkVisible<T extends ListedArticle>(
  articles: ReadonlyMap<number, T>,
  filter: VisibleArticlesFilter,
  termIds: { tag?: string | null; category?: string | null; author?: string | null },
): Generator<T> {
  const afterId = filter.afterId ?? 0;
  const moment = filter.moment.getTime();
  const { before } = filter;
  const newest = filter.order === 'newest';
  const inOrder = newest
    ? [...articles.values()].sort(
        (a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0) || b.id - a.id,
      )
    : articles.values();
  // A walk in id order that a reorder of the map starts over yields no article twice.
  let lastId = 0;
  for (const article of inOrder) {
    if (!newest) {
      if (article.id <= lastId) continue;
      lastId = article.id;
    }
    const publishedAt = article.publishedAt?.getTime();
    if (publishedAt === undefined || publishedAt > moment) continue;
    if (newest) {
      const at = before?.publishedAt.getTime();
      if (before && at !== undefined && (publishedAt > at || (publishedAt === at && article.id >= before.id))) continue;
    } else if (article.id <= afterId) continue;
    if (filter.featured !== undefined && article.featured !== filter.featured) continue;
    if (termIds.tag !== undefined && (termIds.tag === null || !article.tagIds.includes(termIds.tag))) continue;
    if (
      termIds.category !== undefined &&
      (termIds.category === null || !article.categoryIds.includes(termIds.category))
    )
      continue;
    if (termIds.author !== undefined && (termIds.author === null || article.authorId !== termIds.author)) continue;
    if (filter.foldedQuery !== undefined && !containsFolded(article.search, filter.foldedQuery)) continue;
    yield article;
  }
}

/** The latest publishedAt at or before `moment` (-Infinity for none): it moves when a scheduled time arrives. */
export function latestPublishedAt(articles: Iterable<{ readonly publishedAt: Date | null }>, moment: Date): number {
  let latest = -Infinity;
  for (const article of articles) {
    const at = article.publishedAt?.getTime();
    if (at !== undefined && at <= moment.getTime() && at > latest) latest = at;
  }
  return latest;
}
