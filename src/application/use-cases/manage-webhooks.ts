import {
  type Actor,
  codePointLength,
  isWebhookEventType,
  unstorableTextReason,
  ValidationError,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEventType,
  WebhookNotFoundError,
  type WebhookSubscription,
} from '../../domain';
import { requireAdmin } from '../access/article-access';
import type { RecordedWriteEvents } from '../events/recorded-write-events';
import type { Clock } from '../ports/clock';
import type { DeliveryPosition, WebhookRepository } from '../ports/webhook-repository';
import type { WebhookUrlCheck } from '../ports/webhook-sender';

export const WEBHOOK_RULES = { urlMaxLength: 2048, descriptionMaxLength: 500 } as const;
const MANAGING = 'Managing webhooks';

export interface CreateWebhookInput {
  url: string;
  events?: readonly string[];
  description?: string | null;
}

/** What creating a subscription needs beyond its storage. */
export interface WebhookCreation {
  readonly urls: WebhookUrlCheck;
  readonly newId: () => string;
  readonly newSecret: () => string;
  readonly writeEvents: RecordedWriteEvents;
  /** Waited after the subscription is stored, before it is answered (RecordedWriteEvents). */
  readonly settle: () => Promise<void>;
}

/** Subscribes a URL to events; admins only. The secret is in the answer, and only there. */
export class CreateWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
    private readonly creation: WebhookCreation,
  ) {}

  async execute(input: CreateWebhookInput, actor: Actor): Promise<WebhookSubscription> {
    const events = eventsOf(input.events);
    const description = descriptionOf(input.description);
    if (input.url.length > WEBHOOK_RULES.urlMaxLength) {
      throw new ValidationError('url', `must be at most ${WEBHOOK_RULES.urlMaxLength} characters`);
    }
    requireAdmin(actor, MANAGING);
    const problem = await this.creation.urls.problemWith(input.url);
    if (problem !== null) throw new ValidationError('url', problem);
    const subscription: WebhookSubscription = {
      id: this.creation.newId(),
      url: input.url,
      events,
      description,
      secret: this.creation.newSecret(),
      createdAt: this.clock.now(),
    };
    await this.webhooks.createSubscription(subscription);
    this.creation.writeEvents.subscriptionCreated();
    await this.creation.settle();
    return subscription;
  }
}

/** Every event type when none is named; else those named, in the API's order (a name twice counts once). */
function eventsOf(named: readonly string[] | undefined): WebhookEventType[] {
  if (named === undefined) return [...WEBHOOK_EVENT_TYPES];
  if (named.length === 0) throw new ValidationError('events', 'must name at least one event (or be left out: all)');
  for (const name of named) {
    if (!isWebhookEventType(name)) {
      throw new ValidationError('events', `"${name}" is not one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    }
  }
  return WEBHOOK_EVENT_TYPES.filter((type) => named.includes(type));
}

function descriptionOf(description: string | null | undefined): string | null {
  if (description === undefined || description === null) return null;
  const problem =
    codePointLength(description) > WEBHOOK_RULES.descriptionMaxLength
      ? `must be at most ${WEBHOOK_RULES.descriptionMaxLength} characters`
      : unstorableTextReason(description);
  if (problem !== null) throw new ValidationError('description', problem);
  return description;
}

/** The subscriptions, oldest first, without their secrets' use: the presenter leaves them out. */
export class ListWebhooks {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(actor: Actor): Promise<WebhookSubscription[]> {
    requireAdmin(actor, MANAGING);
    return this.webhooks.listSubscriptions();
  }
}

/** Ends a subscription: its pending deliveries are never attempted. */
export class DeleteWebhook {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(id: string, actor: Actor): Promise<WebhookSubscription> {
    requireAdmin(actor, MANAGING);
    const subscription = await this.webhooks.findSubscription(id);
    if (!subscription || !(await this.webhooks.deleteSubscription(id))) throw new WebhookNotFoundError(id);
    return subscription;
  }
}

/** A page of a subscription's deliveries, newest first. */
export class ListWebhookDeliveries {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(
    id: string,
    limit: number,
    before: DeliveryPosition | undefined,
    actor: Actor,
  ): Promise<WebhookDelivery[]> {
    requireAdmin(actor, MANAGING);
    if (!(await this.webhooks.findSubscription(id))) throw new WebhookNotFoundError(id);
    return this.webhooks.listDeliveries(id, limit, before);
  }
}
