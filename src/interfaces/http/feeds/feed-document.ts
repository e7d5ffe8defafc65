/**
 * A feed as the three formats render it: what the contract's "Feeds" section names, already
 * resolved to text and times (links made from PUBLIC_URL and ARTICLE_URL_TEMPLATE, titles
 * falling back to slugs). The renderers only spell it.
 */
export interface FeedDocument {
  /** FEED_TITLE; also the Atom feed's author name. */
  readonly title: string;
  /** PUBLIC_URL: the site. */
  readonly siteUrl: string;
  /** PUBLIC_URL + the request's path and query. */
  readonly selfUrl: string;
  /** The feed's Last-Modified: Atom `updated`, RSS `lastBuildDate`. */
  readonly updated: Date;
  readonly entries: readonly FeedEntry[];
}

export interface FeedEntry {
  /** `tag:<host>,2026:article:<id>`: unchanged by edits and slug renames. */
  readonly id: string;
  readonly url: string;
  /** The title, or the slug when the title is null. */
  readonly title: string;
  /** The description. */
  readonly summary: string;
  /** The content (RSS has no element for it). */
  readonly content: string;
  readonly published: Date;
  readonly updated: Date;
  /** The names of its tags, then of its categories. */
  readonly categories: readonly string[];
  /** The author's name, once keys exist; null otherwise. */
  readonly author: string | null;
}
