import type { FeedDocument, FeedEntry } from './feed-document';

/** JSON Feed 1.1: JSON carries any text, so nothing is replaced. */
export function jsonFeed(feed: FeedDocument): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: feed.siteUrl,
    feed_url: feed.selfUrl,
    items: feed.entries.map(jsonFeedItem),
  });
}

function jsonFeedItem(entry: FeedEntry) {
  return {
    id: entry.id,
    url: entry.url,
    title: entry.title,
    summary: entry.summary,
    content_text: entry.content,
    date_published: entry.published.toISOString(),
    date_modified: entry.updated.toISOString(),
    tags: entry.categories,
    ...(entry.author === null ? {} : { authors: [{ name: entry.author }] }),
  };
}
