import type { ClaimedDelivery, DeliveryOutcome, DeliveryPosition, WebhookRepository } from '../../../application';
import type { WebhookDelivery, WebhookSubscription } from '../../../domain';
import { InMemoryWebhooks, type StoredDelivery } from './in-memory-webhooks';

/** Subscriptions and the outbox in this process (InMemoryWebhooks, shared with the article repository). */
export class InMemoryWebhookRepository implements WebhookRepository {
  constructor(readonly store: InMemoryWebhooks = new InMemoryWebhooks()) {}

  async createSubscription(subscription: WebhookSubscription): Promise<void> {
    this.store.subscriptions.set(subscription.id, structuredClone(subscription));
  }

  async listSubscriptions(): Promise<WebhookSubscription[]> {
    const oldestFirst = [...this.store.subscriptions.values()].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareText(a.id, b.id),
    );
    return structuredClone(oldestFirst);
  }

  async findSubscription(id: string): Promise<WebhookSubscription | null> {
    return structuredClone(this.store.subscriptions.get(id) ?? null);
  }

  async deleteSubscription(id: string): Promise<boolean> {
    for (const [key, delivery] of this.store.deliveries) {
      if (delivery.subscriptionId === id) this.store.deliveries.delete(key);
    }
    return this.store.subscriptions.delete(id);
  }

  async anySubscription(): Promise<boolean> {
    return this.store.subscriptions.size > 0;
  }

  async listDeliveries(subscriptionId: string, limit: number, before?: DeliveryPosition): Promise<WebhookDelivery[]> {
    return [...this.store.deliveries.values()]
      .filter((delivery) => delivery.subscriptionId === subscriptionId && isBefore(delivery, before))
      .sort(newestCreatedFirst)
      .slice(0, limit)
      .map(deliveryOf);
  }

  async subscriptionsWithDueDeliveries(now: Date, limit: number): Promise<string[]> {
    const due = new Set<string>();
    for (const delivery of this.store.deliveries.values()) {
      if (isDue(delivery, now)) due.add(delivery.subscriptionId);
    }
    return [...due].slice(0, limit);
  }

  async claimDue(subscriptionId: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const due = [...this.store.deliveries.values()]
      .filter((delivery) => delivery.subscriptionId === subscriptionId && isDue(delivery, now))
      .sort(
        (a, b) =>
          (a.nextAttemptAt as Date).getTime() - (b.nextAttemptAt as Date).getTime() ||
          compareText(a.event.id, b.event.id),
      )
      .slice(0, limit);
    return due.map((delivery) => {
      delivery.claimedUntil = leaseUntil;
      return {
        subscriptionId,
        event: structuredClone(delivery.event),
        attempts: delivery.attempts,
        lease: leaseUntil,
      };
    });
  }

  async recordOutcome(claim: ClaimedDelivery, outcome: DeliveryOutcome): Promise<boolean> {
    const delivery = this.store.deliveries.get(`${claim.subscriptionId} ${claim.event.id}`);
    if (delivery?.claimedUntil?.getTime() !== claim.lease.getTime()) return false;
    delivery.attempts++;
    delivery.claimedUntil = null;
    delivery.lastStatus = outcome.status;
    delivery.lastError = outcome.kind === 'delivered' ? null : outcome.error;
    delivery.state = outcome.kind === 'retry' ? 'pending' : outcome.kind;
    delivery.nextAttemptAt = outcome.kind === 'retry' ? outcome.nextAttemptAt : null;
    delivery.deliveredAt = outcome.kind === 'delivered' ? outcome.at : null;
    return true;
  }

  async pendingSummary(now: Date): Promise<{ pending: number; oldestDueAt: Date | null }> {
    let pending = 0;
    let oldestDueAt: Date | null = null;
    for (const delivery of this.store.deliveries.values()) {
      if (delivery.state !== 'pending') continue;
      pending++;
      const dueAt = delivery.nextAttemptAt as Date;
      if (dueAt <= now && (oldestDueAt === null || dueAt < oldestDueAt)) oldestDueAt = dueAt;
    }
    return { pending, oldestDueAt };
  }
}

function isDue(delivery: StoredDelivery, now: Date): boolean {
  return (
    delivery.state === 'pending' &&
    (delivery.nextAttemptAt as Date) <= now &&
    (delivery.claimedUntil === null || delivery.claimedUntil < now)
  );
}

/** By code unit, as the SQL storages compare ids (C collation, BINARY). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function newestCreatedFirst(a: StoredDelivery, b: StoredDelivery): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || compareText(b.event.id, a.event.id);
}

function isBefore(delivery: StoredDelivery, position: DeliveryPosition | undefined): boolean {
  if (!position) return true;
  const time = delivery.createdAt.getTime();
  const at = position.createdAt.getTime();
  return time < at || (time === at && delivery.event.id < position.eventId);
}

function deliveryOf(delivery: StoredDelivery): WebhookDelivery {
  return {
    eventId: delivery.event.id,
    type: delivery.event.type,
    attempts: delivery.attempts,
    state: delivery.state,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.nextAttemptAt,
    deliveredAt: delivery.deliveredAt,
    createdAt: delivery.createdAt,
  };
}
