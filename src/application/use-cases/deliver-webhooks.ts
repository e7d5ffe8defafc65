import type { ArticleEvent, WebhookSubscription } from '../../domain';
import type { Clock } from '../ports/clock';
import type { ClaimedDelivery, DeliveryOutcome, WebhookRepository } from '../ports/webhook-repository';
import type { SendResult, WebhookSender } from '../ports/webhook-sender';

/**
 * Standard Webhooks' schedule, the default: after attempt n (1..7) fails, the next comes this
 * long after, ± RETRY_JITTER; the 8th failure is final. An operator may set another
 * (DeliveryLimits.retryDelaysMs).
 */
export const STANDARD_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
const RETRY_JITTER = 0.2;
/** Subscriptions with due deliveries looked at per round. */
const SUBSCRIPTIONS_PER_ROUND = 100;

export type AttemptOutcome = DeliveryOutcome['kind'] | 'gone';

export interface DeliveryLimits {
  /** Attempts in flight at once from this instance to one subscription: a slow receiver holds only these. */
  readonly perSubscription: number;
  /** Attempts in flight at once from this instance. */
  readonly total: number;
  /** How long a claim keeps other instances away: longer than an attempt's time limit. */
  readonly leaseMs: number;
  /** After attempt n fails, the next comes the nth of these later (± 20 %); a failure past the last is final. */
  readonly retryDelaysMs: readonly number[];
}

export interface DeliveryHooks {
  /** 0 ≤ x < 1, for the retries' jitter. */
  readonly random: () => number;
  readonly observe?: (outcome: AttemptOutcome) => void;
  /** A storage failure while recording an outcome or claiming more: the claim's lease passes, the attempt is made again. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Delivers the due events (the outbox, WebhookRepository): each round claims, per subscription,
 * as many due deliveries as this instance has room for, and starts their attempts without
 * waiting for them, so that a slow or dead receiver holds only its own share (perSubscription)
 * and no other subscription waits on it. Each attempt's outcome is stored under its claim: a 2xx
 * delivers; a 410 ends the subscription; anything else is retried after the limits' retryDelaysMs,
 * and fails for good after the last of them. An instance that dies mid-attempt leaves its claim to
 * expire: another instance attempts it again, with the same `webhook-id` (at least once).
 */
export class DeliverWebhooks {
  /** Attempts in flight, and claims being made, per subscription: its share in use. */
  private readonly slotsBySubscription = new Map<string, number>();
  private slotsInUse = 0;
  private readonly attempts = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    /** The body of an event's POST: the same bytes at every attempt. */
    private readonly bodyOf: (event: ArticleEvent) => string,
    private readonly limits: DeliveryLimits,
    private readonly hooks: DeliveryHooks,
  ) {}

  /**
   * One round: claims what is due and starts its attempts; answers them (tests wait for them). A
   * round finds work; once found, each attempt that ends claims the next of its subscription at
   * once (refill), so that a receiver that answers fast is not held to one batch per round.
   */
  async round(): Promise<Promise<void>[]> {
    if (this.stopping || this.slotsInUse >= this.limits.total) return [];
    const due = await this.webhooks.subscriptionsWithDueDeliveries(this.clock.now(), SUBSCRIPTIONS_PER_ROUND);
    if (due.length === 0) return [];
    const subscriptions = new Map((await this.webhooks.listSubscriptions()).map((found) => [found.id, found]));
    const started: Promise<void>[] = [];
    for (const id of due) {
      const subscription = subscriptions.get(id);
      if (subscription) started.push(...(await this.claimFor(subscription)));
    }
    return started;
  }

  /** Until no attempt is under way, those that refills start included (tests). */
  async drained(): Promise<void> {
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
  }

  /** Starts no more attempts, and waits for those under way (a clean stop), at most `ms`. */
  async settle(ms: number): Promise<void> {
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.allSettled([...this.attempts]), deadline]);
    clearTimeout(timer);
  }

  /** Claims as many of the subscription's due deliveries as its share and the total leave room for. */
  private async claimFor(subscription: WebhookSubscription): Promise<Promise<void>[]> {
    const id = subscription.id;
    const room = Math.min(
      this.limits.perSubscription - (this.slotsBySubscription.get(id) ?? 0),
      this.limits.total - this.slotsInUse,
    );
    if (this.stopping || room <= 0) return [];
    // The room is taken before the claim is awaited, so that a round and a refill never overfill it.
    this.take(id, room);
    let claims: ClaimedDelivery[] = [];
    try {
      const now = this.clock.now();
      claims = await this.webhooks.claimDue(id, now, new Date(now.getTime() + this.limits.leaseMs), room);
    } finally {
      this.take(id, -room);
    }
    // Synchronously after the reservation ends: each claim takes its slot back at once.
    return claims.map((claim) => this.track(subscription, claim));
  }

  /** Runs the attempt, then refills the subscription's share; tracked until both are done. */
  private track(subscription: WebhookSubscription, claim: ClaimedDelivery): Promise<void> {
    const id = subscription.id;
    this.take(id, 1);
    const attempt = (async () => {
      try {
        await this.attempt(subscription, claim);
      } finally {
        this.take(id, -1);
      }
      await this.claimFor(subscription).catch((error: unknown) => this.hooks.onError?.(error));
    })();
    this.attempts.add(attempt);
    void attempt.finally(() => this.attempts.delete(attempt));
    return attempt;
  }

  private take(id: string, slots: number): void {
    const left = (this.slotsBySubscription.get(id) ?? 0) + slots;
    this.slotsInUse += slots;
    if (left === 0) this.slotsBySubscription.delete(id);
    else this.slotsBySubscription.set(id, left);
  }

  private async attempt(subscription: WebhookSubscription, claim: ClaimedDelivery): Promise<void> {
    try {
      const result = await this.sender.send(subscription, claim.event.id, this.bodyOf(claim.event), this.clock.now());
      if ('status' in result && result.status === 410) {
        await this.webhooks.deleteSubscription(subscription.id);
        this.hooks.observe?.('gone');
        return;
      }
      const outcome = this.outcomeOf(result, claim.attempts + 1);
      if (await this.webhooks.recordOutcome(claim, outcome)) this.hooks.observe?.(outcome.kind);
    } catch (error) {
      this.hooks.onError?.(error);
    }
  }

  private outcomeOf(result: SendResult, attempt: number): DeliveryOutcome {
    const now = this.clock.now();
    const status = 'status' in result ? result.status : null;
    if (status !== null && status >= 200 && status < 300) return { kind: 'delivered', status, at: now };
    const error = 'error' in result ? result.error : `answered ${status}`;
    const delay = this.limits.retryDelaysMs[attempt - 1];
    if (delay === undefined) return { kind: 'failed', status, error };
    const jitter = 1 + RETRY_JITTER * (2 * this.hooks.random() - 1);
    return { kind: 'retry', status, error, nextAttemptAt: new Date(now.getTime() + Math.round(delay * jitter)) };
  }
}
