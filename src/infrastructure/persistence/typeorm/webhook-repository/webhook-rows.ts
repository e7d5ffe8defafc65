import type { ClaimedDelivery } from '../../../../application';
import {
  type DeliveryState,
  isWebhookEventType,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookSubscription,
} from '../../../../domain';
import { articleOfStoredJson } from '../article-repository/stored-article-json';

/** A row of webhook_statements' subscription reads: its instant in epoch ms. */
export interface SubscriptionRow {
  id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  createdAt: number;
}

/** A row of the deliveries log (list_deliveries). */
export interface DeliveryRow {
  eventId: string;
  type: string;
  attempts: number;
  state: string;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  createdAt: number;
}

/** A row claim_due answers: the event as the write stored it. */
export interface ClaimedRow {
  eventId: string;
  type: string;
  articleId: number;
  article: string;
  occurredAt: number;
  attempts: number;
  nextAttemptAt: number;
}

/** The events column: each type with a comma before and after, so that `LIKE '%,type,%'` finds its subscriptions. */
export function eventsColumn(events: readonly WebhookEventType[]): string {
  return `,${events.join(',')},`;
}

function eventsOfColumn(text: string): WebhookEventType[] {
  return text.split(',').filter(isWebhookEventType);
}

const dateOf = (ms: number | null) => (ms === null ? null : new Date(Number(ms)));

export function subscriptionOf(row: SubscriptionRow): WebhookSubscription {
  return {
    id: row.id,
    url: row.url,
    events: eventsOfColumn(row.events),
    description: row.description,
    secret: row.secret,
    createdAt: new Date(Number(row.createdAt)),
  };
}

export function deliveryOf(row: DeliveryRow): WebhookDelivery {
  return {
    eventId: row.eventId,
    type: row.type as WebhookEventType,
    attempts: row.attempts,
    state: row.state as DeliveryState,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextAttemptAt: dateOf(row.nextAttemptAt),
    deliveredAt: dateOf(row.deliveredAt),
    createdAt: new Date(Number(row.createdAt)),
  };
}

/** The claims of one claim_due, oldest due first (RETURNING promises no order). */
export function claimsOf(rows: ClaimedRow[], subscriptionId: string, lease: Date): ClaimedDelivery[] {
  const byDue = [...rows].sort(
    (a, b) => Number(a.nextAttemptAt) - Number(b.nextAttemptAt) || (a.eventId < b.eventId ? -1 : 1),
  );
  return byDue.map((row) => ({
    subscriptionId,
    event: {
      id: row.eventId,
      type: row.type as WebhookEventType,
      article: articleOfStoredJson(row.article, row.articleId),
      occurredAt: new Date(Number(row.occurredAt)),
    },
    attempts: row.attempts,
    lease,
  }));
}
