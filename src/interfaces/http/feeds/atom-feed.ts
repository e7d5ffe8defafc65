import type { FeedDocument, FeedEntry } from './feed-document';
import { xmlText } from './xml-text';

/** Atom (RFC 4287): the feed's author is FEED_TITLE, so every entry has one even without keys. */
export function atomFeed(feed: FeedDocument): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlText(feed.selfUrl)}</id>`,
    `<title type="text">${xmlText(feed.title)}</title>`,
    `<updated>${feed.updated.toISOString()}</updated>`,
    `<author><name>${xmlText(feed.title)}</name></author>`,
    `<link rel="alternate" type="text/html" href="${xmlText(feed.siteUrl)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${xmlText(feed.selfUrl)}"/>`,
    ...feed.entries.map(atomEntry),
    '</feed>',
    '',
  ].join('\n');
}

function atomEntry(entry: FeedEntry): string {
  return [
    '<entry>',
    `<id>${xmlText(entry.id)}</id>`,
    `<title type="text">${xmlText(entry.title)}</title>`,
    `<link rel="alternate" type="text/html" href="${xmlText(entry.url)}"/>`,
    `<published>${entry.published.toISOString()}</published>`,
    `<updated>${entry.updated.toISOString()}</updated>`,
    ...(entry.author === null ? [] : [`<author><name>${xmlText(entry.author)}</name></author>`]),
    ...entry.categories.map((name) => `<category term="${xmlText(name)}"/>`),
    `<summary type="text">${xmlText(entry.summary)}</summary>`,
    `<content type="text">${xmlText(entry.content)}</content>`,
    '</entry>',
  ].join('\n');
}
