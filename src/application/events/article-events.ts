import { type Article, type ArticleEvent, articleStatusAt, type WebhookEventType } from '../../domain';

/** An event before its id: what a write emits (ArticleEvent). */
export type EmittedEvent = Omit<ArticleEvent, 'id'>;

/**
 * The events of one write, from the article before it (null for a create) and after it (null for
 * a delete), at the write's time `at` (api.md "Webhooks"):
 * - published before and after: `article.updated`;
 * - published after only: `article.published`; before only: `article.unpublished`;
 * - a published article deleted: `article.deleted`, with the article as it was;
 * - an article left scheduled: its `article.published`, due at its publishedAt.
 * Writes to drafts and scheduled articles emit nothing else. A write also cancels the article's
 * scheduled `article.published` not yet due (WriteEvents): a schedule kept is emitted again, with
 * the article as this write left it.
 */
export function eventsOfWrite(before: Article | null, after: Article | null, at: Date): EmittedEvent[] {
  const wasPublished = before !== null && articleStatusAt(before.publishedAt, at) === 'published';
  if (after === null) return wasPublished && before ? [event('article.deleted', before, at)] : [];
  const status = articleStatusAt(after.publishedAt, at);
  const events: EmittedEvent[] = [];
  if (status === 'published') events.push(event(wasPublished ? 'article.updated' : 'article.published', after, at));
  else if (wasPublished) events.push(event('article.unpublished', after, at));
  if (status === 'scheduled') events.push(event('article.published', after, after.publishedAt as Date));
  return events;
}

function event(type: WebhookEventType, article: Article, occurredAt: Date): EmittedEvent {
  return { type, article, occurredAt };
}
