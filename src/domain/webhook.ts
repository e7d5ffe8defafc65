import type { Article } from './article';
import { DomainError } from './errors';

/** What a subscription may hear, in the order the API lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'article.published',
  'article.updated',
  'article.unpublished',
  'article.deleted',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(text: string): text is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(text);
}

/** A receiver of events, as stored: its secret signs every delivery. */
export interface WebhookSubscription {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description: string | null;
  /** `whsec_` + base64 of 32 random bytes: shown once, when it is created. */
  readonly secret: string;
  readonly createdAt: Date;
}

/**
 * An event a write emits: `article` as it is right after the write (for a delete, as it was
 * before), at `occurredAt` (the write's time, or for a schedule its publishedAt: when it is due).
 * Its id is the same for every subscription and every attempt (`webhook-id`).
 */
export interface ArticleEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly article: Article;
  readonly occurredAt: Date;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One event for one subscription, as the deliveries log shows it. */
export interface WebhookDelivery {
  readonly eventId: string;
  readonly type: WebhookEventType;
  readonly attempts: number;
  readonly state: DeliveryState;
  /** The HTTP status of the last attempt; null before any, or when it got no answer. */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  /** null once delivered or failed. */
  readonly nextAttemptAt: Date | null;
  readonly deliveredAt: Date | null;
  readonly createdAt: Date;
}

export class WebhookNotFoundError extends DomainError {
  constructor(readonly webhookId: string) {
    super(`webhook ${webhookId} does not exist`);
  }
}
