import type { FeedDocument, FeedEntry } from './feed-document';
import { xmlText } from './xml-text';

/** RSS 2.0 with `atom:link rel="self"` (the RSS Best Practices Profile); dates in RFC 822's form. */
export function rssFeed(feed: FeedDocument): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${xmlText(feed.title)}</title>`,
    `<link>${xmlText(feed.siteUrl)}</link>`,
    `<description>${xmlText(feed.title)}</description>`,
    `<atom:link href="${xmlText(feed.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${feed.updated.toUTCString()}</lastBuildDate>`,
    ...feed.entries.map(rssItem),
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** RSS's `author` must be an e-mail address; a name goes in `dc:creator`, as WordPress does. */
function rssItem(entry: FeedEntry): string {
  return [
    '<item>',
    `<title>${xmlText(entry.title)}</title>`,
    `<link>${xmlText(entry.url)}</link>`,
    `<guid isPermaLink="false">${xmlText(entry.id)}</guid>`,
    `<pubDate>${entry.published.toUTCString()}</pubDate>`,
    `<description>${xmlText(entry.summary)}</description>`,
    ...(entry.author === null ? [] : [`<dc:creator>${xmlText(entry.author)}</dc:creator>`]),
    ...entry.categories.map((name) => `<category>${xmlText(name)}</category>`),
    '</item>',
  ].join('\n');
}
