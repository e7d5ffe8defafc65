import type { ArticleEvent, WebhookDelivery, WebhookSubscription } from '../../domain';

/** Where a page of a subscription's deliveries starts: after this one, newest created first. */
export interface DeliveryPosition {
  readonly createdAt: Date;
  readonly eventId: string;
}

/** A delivery claimed by this instance until `lease`: no other instance attempts it before then. */
export interface ClaimedDelivery {
  readonly subscriptionId: string;
  readonly event: ArticleEvent;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly lease: Date;
}

/** What an attempt ended in. */
export type DeliveryOutcome =
  | { readonly kind: 'delivered'; readonly status: number; readonly at: Date }
  | {
      readonly kind: 'retry';
      readonly status: number | null;
      readonly error: string | null;
      readonly nextAttemptAt: Date;
    }
  | { readonly kind: 'failed'; readonly status: number | null; readonly error: string | null };

/**
 * Subscriptions and their deliveries (the outbox the article writes fill, WriteEvents). Claims
 * are arbitrated by the storage: of instances claiming at once, each delivery goes to one.
 */
export interface WebhookRepository {
  createSubscription(subscription: WebhookSubscription): Promise<void>;
  /** Oldest first. */
  listSubscriptions(): Promise<WebhookSubscription[]>;
  findSubscription(id: string): Promise<WebhookSubscription | null>;
  /** Removes it and its deliveries; false when none has this id. */
  deleteSubscription(id: string): Promise<boolean>;
  anySubscription(): Promise<boolean>;
  /** Its deliveries, newest created first (then event id descending), after `before`, at most `limit`. */
  listDeliveries(subscriptionId: string, limit: number, before?: DeliveryPosition): Promise<WebhookDelivery[]>;
  /** Ids of subscriptions with a pending delivery due at `now` and unclaimed (or its lease past), at most `limit`. */
  subscriptionsWithDueDeliveries(now: Date, limit: number): Promise<string[]>;
  /**
   * Claims at most `limit` of the subscription's due, unclaimed deliveries, oldest due first,
   * until `leaseUntil`; rows another instance is claiming at the same moment are skipped.
   */
  claimDue(subscriptionId: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]>;
  /**
   * Stores an attempt's outcome (one more attempt) and ends the claim; false, and nothing
   * written, when the claim is no longer this one (its lease passed and another instance took it).
   */
  recordOutcome(claim: ClaimedDelivery, outcome: DeliveryOutcome): Promise<boolean>;
  /** How many deliveries are pending, and when the oldest due one was due (null: none due). */
  pendingSummary(now: Date): Promise<{ pending: number; oldestDueAt: Date | null }>;
}
