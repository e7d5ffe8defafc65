import {
  type ArticleRepository,
  type ClaimedDelivery,
  eventsOfWrite,
  type WebhookRepository,
  type WriteEvents,
} from '../../../src/application';
import type { Article, ArticleEvent, WebhookEventType, WebhookSubscription } from '../../../src/domain';

/** One adapter's article and webhook repositories over one storage of their own. */
export interface WebhookContractSubject {
  /** Its writes record their events through the WriteEvents the contract handed to `open`. */
  articles: ArticleRepository;
  webhooks: WebhookRepository;
  /** Empties the storage between tests (a new store may replace the repositories: read them after). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** What each adapter's test file hands the contract: opens a subject whose article writes record through `writeEvents`. */
export type OpenWebhookContractSubject = (writeEvents: WriteEvents) => Promise<WebhookContractSubject>;

/**
 * The events of a write as the service emits them (eventsOfWrite), with ids from a counter,
 * zero-padded so that their order as text is the order they were made in; `on` switches recording.
 */
export class CountingWriteEvents implements WriteEvents {
  on = true;
  private made = 0;

  recording(): boolean {
    return this.on;
  }

  eventsOf(before: Article | null, after: Article | null, at: Date): ArticleEvent[] {
    return eventsOfWrite(before, after, at).map((event) => ({ id: this.nextId(), ...event }));
  }

  reset(): void {
    this.on = true;
    this.made = 0;
  }

  private nextId(): string {
    this.made++;
    return `evt_${String(this.made).padStart(6, '0')}`;
  }
}

/** What each behaviour's tests use: the repositories of a storage emptied before the test, and its WriteEvents. */
export interface WebhookTestContext {
  articles: ArticleRepository;
  webhooks: WebhookRepository;
  events: CountingWriteEvents;
}

/**
 * The subject every behaviour of one adapter's contract shares (one database per test file keeps
 * the run short), with the WriteEvents its article writes record through.
 */
export interface SharedWebhookSubject {
  readonly events: CountingWriteEvents;
  /** The subject, opened at the first call; closed by closeShared only. */
  subject(): Promise<WebhookContractSubject>;
  closeShared(): Promise<void>;
}

export function sharedWebhookSubject(open: OpenWebhookContractSubject): SharedWebhookSubject {
  const events = new CountingWriteEvents();
  let opened: Promise<WebhookContractSubject> | undefined;
  return {
    events,
    subject: () => {
      opened ??= open(events);
      return opened;
    },
    closeShared: async () => {
      if (opened) await (await opened).close();
    },
  };
}

/**
 * Fills `context` before each test of the enclosing describe with the shared subject's
 * repositories, on storage emptied for that test, recording on and event ids counted from 1.
 */
export function useWebhookSubject(shared: SharedWebhookSubject): WebhookTestContext {
  const context = { events: shared.events } as WebhookTestContext;
  beforeEach(async () => {
    const subject = await shared.subject();
    await subject.reset();
    shared.events.reset();
    context.articles = subject.articles;
    context.webhooks = subject.webhooks;
  });
  return context;
}

export const T0 = new Date('2026-10-01T12:00:00.000Z');
/** T0 plus `seconds`. */
export const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

let subscriptions = 0;

/** A subscription to `events` (all four by default), created at `createdAt`. */
export function aSubscription(
  overrides: Partial<WebhookSubscription> & { events?: readonly WebhookEventType[] } = {},
): WebhookSubscription {
  subscriptions++;
  return {
    id: `sub_${String(subscriptions).padStart(6, '0')}`,
    url: `https://hooks.example.com/receiver/${subscriptions}`,
    events: ['article.published', 'article.updated', 'article.unpublished', 'article.deleted'],
    description: null,
    secret: `whsec_${Buffer.alloc(32, subscriptions).toString('base64')}`,
    createdAt: T0,
    ...overrides,
  };
}

/** The deliveries of `subscriptionId` due at `now`, claimed for a minute. */
export async function claimedAt(
  webhooks: WebhookRepository,
  subscriptionId: string,
  now: Date,
  limit = 1000,
): Promise<ClaimedDelivery[]> {
  return webhooks.claimDue(subscriptionId, now, new Date(now.getTime() + 60_000), limit);
}

/** A subscription's pending deliveries, oldest created first: their type, when due, attempts made. */
export async function pendingOf(
  webhooks: WebhookRepository,
  subscriptionId: string,
): Promise<{ type: WebhookEventType; nextAttemptAt: Date | null; attempts: number }[]> {
  const log = await webhooks.listDeliveries(subscriptionId, 1000);
  return log
    .filter((delivery) => delivery.state === 'pending')
    .reverse()
    .map(({ type, nextAttemptAt, attempts }) => ({ type, nextAttemptAt, attempts }));
}
