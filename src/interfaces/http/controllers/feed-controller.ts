import { createHash } from 'node:crypto';
import type { Clock, ReadFeed } from '../../../application';
import { ifNoneMatchNames } from '../entity-tag';
import { atomFeed } from '../feeds/atom-feed';
import type { FeedDocument } from '../feeds/feed-document';
import { type FeedLinks, feedOfArticles } from '../feeds/feed-of-articles';
import { jsonFeed } from '../feeds/json-feed';
import { rssFeed } from '../feeds/rss-feed';
import { NotModified, UnwrappedBody } from '../response';
import type { FeedConditionHeaders, FeedQuery } from '../validation/feed-query';

/** A feed format: its media type (always sent as UTF-8) and how it spells a feed document. */
export interface FeedFormat {
  readonly mediaType: string;
  render(feed: FeedDocument): string;
}

export const RSS: FeedFormat = { mediaType: 'application/rss+xml', render: rssFeed };
export const ATOM: FeedFormat = { mediaType: 'application/atom+xml', render: atomFeed };
export const JSON_FEED: FeedFormat = { mediaType: 'application/feed+json', render: jsonFeed };

/**
 * The feeds, with the validators of a conditional GET: a strong ETag of the body (the same bytes,
 * the same tag, on every instance) and Last-Modified, the feed's last change (ReadFeed).
 */
export class FeedController {
  constructor(
    private readonly readFeed: ReadFeed,
    private readonly links: FeedLinks,
    private readonly clock: Clock,
  ) {}

  async feed(
    format: FeedFormat,
    query: FeedQuery,
    headers: FeedConditionHeaders,
    target: string,
  ): Promise<UnwrappedBody | NotModified> {
    const { articles, lastModified } = await this.readFeed.execute(query);
    const body = format.render(feedOfArticles(articles, this.links, target, lastModified));
    const validators = {
      ETag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      'Last-Modified': lastModified.toUTCString(),
    };
    if (notModified(headers, validators.ETag, lastModified, this.clock.now())) return new NotModified(validators);
    return new UnwrappedBody(`${format.mediaType}; charset=utf-8`, body, validators);
  }
}

/**
 * RFC 9110 §13.2.2: If-None-Match decides when present; otherwise If-Modified-Since answers 304
 * unless the feed changed after it (Last-Modified counts whole seconds). An If-Modified-Since that
 * is not an HTTP date, or is later than now, is ignored (§13.1.3).
 */
function notModified(headers: FeedConditionHeaders, etag: string, lastModified: Date, now: Date): boolean {
  const ifNoneMatch = headers['If-None-Match'];
  if (ifNoneMatch !== undefined) return ifNoneMatchNames(ifNoneMatch, etag);
  const since = httpDate(headers['If-Modified-Since']);
  return since !== null && since <= now.getTime() && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must accept too (RFC 9110 §5.6.7). */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

function httpDate(value: string | undefined): number | null {
  if (value === undefined || !HTTP_DATE.test(value)) return null;
  // asctime has no zone: it is GMT.
  const time = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  return Number.isNaN(time) ? null : time;
}
