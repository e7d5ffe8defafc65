import type { WriteEvents } from '../../../application';
import type { Article, ArticleEvent, DeliveryState, WebhookSubscription } from '../../../domain';

/** A delivery as the in-memory store keeps it: the event, and where its attempts stand. */
export interface StoredDelivery {
  readonly subscriptionId: string;
  readonly event: ArticleEvent;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  claimedUntil: Date | null;
  readonly createdAt: Date;
}

/**
 * Subscriptions and deliveries of the in-memory store, shared by the article repository, whose
 * writes record their events here (recordWrite) in the same synchronous step as the write, and
 * the webhook repository, which reads and claims them.
 */
export class InMemoryWebhooks {
  readonly subscriptions = new Map<string, WebhookSubscription>();
  /** By `<subscription id> <event id>`, in the order they were recorded. */
  readonly deliveries = new Map<string, StoredDelivery>();

  /**
   * What a write's transaction does on the SQL storages (WriteEvents): a write to an existing
   * article cancels its scheduled `article.published` not due yet; each event goes to every
   * subscription that takes its type. `before` is null for a create, `after` for a delete.
   */
  recordWrite(writeEvents: WriteEvents, before: Article | null, after: Article | null, at: Date): void {
    if (!writeEvents.recording()) return;
    if (before !== null) this.cancelSchedule(before.id, at);
    for (const event of writeEvents.eventsOf(before, after, at)) {
      for (const subscription of this.subscriptions.values()) {
        if (!subscription.events.includes(event.type)) continue;
        this.deliveries.set(`${subscription.id} ${event.id}`, {
          subscriptionId: subscription.id,
          event: structuredClone(event),
          state: 'pending',
          attempts: 0,
          nextAttemptAt: event.occurredAt,
          lastStatus: null,
          lastError: null,
          deliveredAt: null,
          claimedUntil: null,
          createdAt: at,
        });
      }
    }
  }

  private cancelSchedule(articleId: number, at: Date): void {
    for (const [key, delivery] of this.deliveries) {
      const { event, state, attempts, nextAttemptAt } = delivery;
      const scheduled = event.type === 'article.published' && state === 'pending' && attempts === 0;
      if (scheduled && event.article.id === articleId && nextAttemptAt !== null && nextAttemptAt > at) {
        this.deliveries.delete(key);
      }
    }
  }
}
