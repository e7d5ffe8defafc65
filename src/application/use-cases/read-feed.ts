import type { Article } from '../../domain';
import type { ArticleRepository, NewestPosition } from '../ports/article-repository';
import type { Clock } from '../ports/clock';
import { visibleArticlesFilter } from './list-visible-articles';

/** Which published articles a feed holds: all of them, or those of a tag, a category, `featured` or an author. */
export interface FeedFilter {
  /** A tag's exact name. */
  tag?: string;
  /** A category's exact name. */
  category?: string;
  featured?: boolean;
  /** An author's slug. */
  author?: string;
}

/** A feed's entries, newest first, and the time of the last change that altered them. */
export interface Feed {
  readonly articles: Article[];
  /**
   * The latest of the entries' updatedAt and publishedAt (an arrival counts at its time) and of
   * the times an article left the feed; the epoch when the feed never held anything.
   */
  readonly lastModified: Date;
}

/** Before every write this service makes: the Last-Modified of a feed that never changed. */
const NEVER = new Date(0);

/**
 * The latest `size` articles published at the clock's reading that match the filter, newest
 * first (publishedAt, then id, descending), with their feed's Last-Modified.
 *
 * An entry that left the feed (deleted, unpublished, moved out of the filter, or given an older
 * publishedAt) is no longer among the entries, but the write that removed it kept it as a
 * revision. Such a change altered the feed when the article as it was matched the filter, was
 * published then, and ranked above the feed's present last entry. A change that passes the
 * test but did not alter the feed always has a later change after it that did (one that pushed
 * it out of the first `size`), so the latest time is exact either way (ADR 0045).
 */
export class ReadFeed {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
    private readonly size: number,
  ) {}

  async execute(filter: FeedFilter): Promise<Feed> {
    const moment = this.clock.now();
    const articles = await this.articles.listVisible({
      ...visibleArticlesFilter({ ...filter, order: 'newest' }, moment),
      limit: this.size,
    });
    const latestEntryChange = articles.reduce(
      (latest, article) => Math.max(latest, article.updatedAt.getTime(), (article.publishedAt as Date).getTime()),
      NEVER.getTime(),
    );
    const last = articles.length === this.size ? articles[articles.length - 1] : undefined;
    const boundary = last && { publishedAt: last.publishedAt as Date, id: last.id };
    const departure = await this.articles.latestReplacement(new Date(latestEntryChange), moment, (was, replacedAt) =>
      leftFeed(was, replacedAt, filter, boundary),
    );
    return { articles, lastModified: departure ?? new Date(latestEntryChange) };
  }
}

/** Whether `was`, replaced at `replacedAt`, could have been an entry of the feed until then. */
function leftFeed(was: Article, replacedAt: Date, filter: FeedFilter, boundary: NewestPosition | undefined): boolean {
  const publishedAt = was.publishedAt;
  if (publishedAt === null || publishedAt > replacedAt || !matches(was, filter)) return false;
  if (boundary === undefined) return true;
  const time = publishedAt.getTime();
  const boundaryTime = boundary.publishedAt.getTime();
  return time > boundaryTime || (time === boundaryTime && was.id > boundary.id);
}

function matches(article: Article, filter: FeedFilter): boolean {
  return (
    (filter.tag === undefined || article.tags.some((tag) => tag.name === filter.tag)) &&
    (filter.category === undefined || article.categories.some((category) => category.name === filter.category)) &&
    (filter.featured === undefined || article.featured === filter.featured) &&
    (filter.author === undefined || article.author?.slug === filter.author)
  );
}
