import type { ArticleEvent } from '../../domain';
import { presentArticle } from './presenters';

/**
 * The body every attempt of an event POSTs (api.md "Webhooks"): `{type, timestamp, data}`, where
 * `data` is the article as the API answers it, presented at the event's time, so that a
 * scheduled article's `article.published` shows it published. The same bytes at every attempt.
 */
export function webhookEventBody(event: ArticleEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: presentArticle(event.article, event.occurredAt),
  });
}
