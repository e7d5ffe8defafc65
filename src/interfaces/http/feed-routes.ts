import { z } from 'zod';
import { ATOM, type FeedController, type FeedFormat, JSON_FEED, RSS } from './controllers/feed-controller';
import { defineRoute, type ResponseHeader, type RouteDefinition } from './route-definition';
import { feedConditionHeaders, feedQuery } from './validation/feed-query';

const FEED_FILTERS =
  'The latest FEED_SIZE published articles, newest first (publishedAt, then id, descending), optionally filtered ' +
  'by `tag`, `category`, `featured` and `author` as the list is (a bad or repeated value is a 400 in the wrapper; ' +
  'other parameters are ignored). Not wrapped. Text XML cannot carry becomes U+FFFD in the XML feeds.';

const validators: Record<string, ResponseHeader> = {
  ETag: {
    description: 'A strong tag of the body: send it back in If-None-Match',
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{22}"$', example: '"q0bI8T6mT0uLsQ8l0Z5Hfw"' },
    required: true,
  },
  'Last-Modified': {
    description:
      "The time of the feed's last change (an entry written, arrived or gone): send it back in If-Modified-Since",
    schema: { type: 'string', example: 'Fri, 27 Nov 2026 09:30:00 GMT' },
    required: true,
  },
};

function feedRoute(
  feeds: FeedController,
  format: FeedFormat,
  route: { path: string; operationId: string; summary: string; data: z.ZodType },
): RouteDefinition {
  return defineRoute({
    method: 'get',
    path: route.path,
    operationId: route.operationId,
    group: 'Feeds',
    summary: route.summary,
    description: FEED_FILTERS,
    write: false,
    query: feedQuery,
    headers: feedConditionHeaders,
    status: 200,
    data: route.data,
    unwrapped: { mediaType: format.mediaType },
    responseHeaders: validators,
    notModified: true,
    handle: ({ query, headers, target }) => feeds.feed(format, query, headers, target),
  });
}

const xmlDocument = z.string().meta({ description: 'The XML document' });

/** JSON Feed 1.1's members this service sends. */
const jsonFeedDocument = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    items: z.array(
      z.object({
        id: z.string(),
        url: z.string(),
        title: z.string(),
        summary: z.string(),
        content_text: z.string(),
        date_published: z.string(),
        date_modified: z.string(),
        tags: z.array(z.string()),
        authors: z.array(z.object({ name: z.string() })).optional(),
      }),
    ),
  })
  .meta({
    id: 'JsonFeed',
    example: {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Blog',
      home_page_url: 'https://blog.example',
      feed_url: 'https://blog.example/feeds/feed.json',
      items: [
        {
          id: 'tag:blog.example,2026:article:1',
          url: 'https://blog.example/article/slug/hello-world',
          title: 'Hello world',
          summary: 'A first article',
          content_text: 'Hello, world.',
          date_published: '2026-11-27T09:30:00.000Z',
          date_modified: '2026-11-27T09:30:00.000Z',
          tags: ['TypeScript', 'dev'],
          authors: [{ name: 'Ada Lovelace' }],
        },
      ],
    },
  });

/** GET /feeds/rss.xml, /feeds/atom.xml and /feeds/feed.json. */
export function feedRouteTable(feeds: FeedController): RouteDefinition[] {
  return [
    feedRoute(feeds, RSS, {
      path: '/feeds/rss.xml',
      operationId: 'readRssFeed',
      summary: 'The RSS 2.0 feed',
      data: xmlDocument,
    }),
    feedRoute(feeds, ATOM, {
      path: '/feeds/atom.xml',
      operationId: 'readAtomFeed',
      summary: 'The Atom feed (RFC 4287)',
      data: xmlDocument,
    }),
    feedRoute(feeds, JSON_FEED, {
      path: '/feeds/feed.json',
      operationId: 'readJsonFeed',
      summary: 'The JSON Feed 1.1',
      data: jsonFeedDocument,
    }),
  ];
}
