import type { Article, ArticleEvent } from '../../domain';
import type { Clock } from '../ports/clock';
import type { WebhookRepository } from '../ports/webhook-repository';
import type { WriteEvents } from '../ports/write-events';
import { eventsOfWrite } from './article-events';

/**
 * The WriteEvents every storage is given: events by eventsOfWrite, each with a new id, recorded
 * unless a reading of the subscriptions, under `freshForMs` old, found none. A write then costs
 * nothing more on a deployment without webhooks. Every instance reads again every few hundred
 * milliseconds (refresh); a subscription is answered only after `freshForMs` (CreateWebhook), so
 * that by then no instance trusts a reading from before it, and every write acknowledged after
 * that records its events. A reading that fails is no reading: writes record.
 */
export class RecordedWriteEvents implements WriteEvents {
  /** When a reading that found no subscription began; null: record. */
  private noneSince: number | null = null;
  /** When this instance last made a subscription: a reading begun before it is out of date. */
  private lastCreated = Number.NEGATIVE_INFINITY;

  constructor(
    /** Where the instance reads whether any subscription exists (a session of its own on PostgreSQL). */
    private readonly subscriptions: Pick<WebhookRepository, 'anySubscription'>,
    private readonly clock: Clock,
    private readonly newEventId: () => string,
    private readonly freshForMs: number,
  ) {}

  recording(): boolean {
    return this.noneSince === null || this.clock.now().getTime() - this.noneSince >= this.freshForMs;
  }

  eventsOf(before: Article | null, after: Article | null, at: Date): ArticleEvent[] {
    return eventsOfWrite(before, after, at).map((event) => ({ id: this.newEventId(), ...event }));
  }

  /** Reads whether any subscription exists; on failure, writes keep recording. */
  async refresh(): Promise<void> {
    const readAt = this.clock.now().getTime();
    try {
      const none = !(await this.subscriptions.anySubscription());
      this.noneSince = none && readAt > this.lastCreated ? readAt : null;
    } catch (error) {
      this.noneSince = null;
      throw error;
    }
  }

  /** This instance made one: its writes record from now on. */
  subscriptionCreated(): void {
    this.noneSince = null;
    this.lastCreated = this.clock.now().getTime();
  }
}
