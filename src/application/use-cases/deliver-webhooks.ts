import type { ArticleEvent, WebhookSubscription } from '../../domain';
import type { Clock } from '../ports/clock';
import type { ClaimedDelivery, DeliveryOutcome, WebhookRepository } from '../ports/webhook-repository';
import type { SendResult, WebhookSender } from '../ports/webhook-sender';

/** After attempt n (1..7) fails, the next comes this long after, ± RETRY_JITTER; the 8th failure is final. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
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
}

export interface DeliveryHooks {
  /** 0 ≤ x < 1, for the retries' jitter. */
  readonly random: () => number;
  readonly observe?: (outcome: AttemptOutcome) => void;
  /** A storage failure while recording an outcome: the claim's lease passes and the attempt is made again. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Delivers the due events (the outbox, WebhookRepository): each round claims, per subscription,
 * as many due deliveries as this instance has room for, and starts their attempts without
 * waiting for them, so that a slow or dead receiver holds only its own share (perSubscription)
 * and no other subscription waits on it. Each attempt's outcome is stored under its claim: a 2xx
 * delivers; a 410 ends the subscription; anything else is retried after RETRY_DELAYS_MS, and
 * fails for good after MAX_ATTEMPTS. An instance that dies mid-attempt leaves its claim to
 * expire: another instance attempts it again, with the same `webhook-id` (at least once).
 */
export class DeliverWebhooks {
  private readonly inFlightBySubscription = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    /** The body of an event's POST: the same bytes at every attempt. */
    private readonly bodyOf: (event: ArticleEvent) => string,
    private readonly limits: DeliveryLimits,
    private readonly hooks: DeliveryHooks,
  ) {}

  /** One round: claims what is due and starts its attempts; answers them (tests wait for them). */
  async round(): Promise<Promise<void>[]> {
    if (this.attempts.size >= this.limits.total) return [];
    const now = this.clock.now();
    const due = await this.webhooks.subscriptionsWithDueDeliveries(now, SUBSCRIPTIONS_PER_ROUND);
    if (due.length === 0) return [];
    const subscriptions = new Map((await this.webhooks.listSubscriptions()).map((found) => [found.id, found]));
    const started: Promise<void>[] = [];
    for (const id of due) {
      const subscription = subscriptions.get(id);
      const room = Math.min(
        this.limits.perSubscription - (this.inFlightBySubscription.get(id) ?? 0),
        this.limits.total - this.attempts.size,
      );
      if (!subscription || room <= 0) continue;
      const lease = new Date(now.getTime() + this.limits.leaseMs);
      for (const claim of await this.webhooks.claimDue(id, now, lease, room)) {
        started.push(this.track(subscription, claim));
      }
    }
    return started;
  }

  /** Waits for the attempts under way (a clean stop), at most `ms`. */
  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.allSettled([...this.attempts]), deadline]);
    clearTimeout(timer);
  }

  private track(subscription: WebhookSubscription, claim: ClaimedDelivery): Promise<void> {
    const id = subscription.id;
    this.inFlightBySubscription.set(id, (this.inFlightBySubscription.get(id) ?? 0) + 1);
    const attempt = this.attempt(subscription, claim).finally(() => {
      this.attempts.delete(attempt);
      const left = (this.inFlightBySubscription.get(id) ?? 1) - 1;
      if (left === 0) this.inFlightBySubscription.delete(id);
      else this.inFlightBySubscription.set(id, left);
    });
    this.attempts.add(attempt);
    return attempt;
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
    if (attempt >= MAX_ATTEMPTS) return { kind: 'failed', status, error };
    const delay = RETRY_DELAYS_MS[attempt - 1] as number;
    const jitter = 1 + RETRY_JITTER * (2 * this.hooks.random() - 1);
    return { kind: 'retry', status, error, nextAttemptAt: new Date(now.getTime() + Math.round(delay * jitter)) };
  }
}
