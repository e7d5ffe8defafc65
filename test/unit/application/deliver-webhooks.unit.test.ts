import {
  CreateArticle,
  DeliverWebhooks,
  RecordedWriteEvents,
  type SendResult,
  STANDARD_RETRY_DELAYS_MS,
  type WebhookSender,
} from '../../../src/application';
import { OPEN_ACTOR, type WebhookSubscription } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { InMemoryWebhookRepository } from '../../../src/infrastructure/persistence/memory/in-memory-webhook-repository';
import { TestClock } from '../../support/test-clock';

const LIMITS = { perSubscription: 2, total: 16, leaseMs: 30_000, retryDelaysMs: STANDARD_RETRY_DELAYS_MS };

/** A receiver per URL: answers what its `answer` says, or holds the attempt until `release`. */
class Receivers implements WebhookSender {
  readonly received: Array<{ url: string; eventId: string; body: string }> = [];
  answer: (url: string) => SendResult | 'hold' = () => ({ status: 204 });
  private readonly held: Array<() => void> = [];

  async send(subscription: WebhookSubscription, eventId: string, body: string): Promise<SendResult> {
    this.received.push({ url: subscription.url, eventId, body });
    const answer = this.answer(subscription.url);
    if (answer !== 'hold') return answer;
    await new Promise<void>((resolve) => this.held.push(resolve));
    return { error: 'no answer within 10000 ms' };
  }

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

describe('DeliverWebhooks, on the in-memory store', () => {
  let clock: TestClock;
  let webhooks: InMemoryWebhookRepository;
  let create: CreateArticle;
  let receivers: Receivers;
  let ids: number;
  const deliverer = (random = () => 0.5, retryDelaysMs = LIMITS.retryDelaysMs) =>
    new DeliverWebhooks(
      webhooks,
      receivers,
      clock,
      (event) => `${event.type} ${event.article.id}`,
      { ...LIMITS, retryDelaysMs },
      { random },
    );
  const subscribe = (id: string, url = `https://${id}.example`) =>
    webhooks.createSubscription({
      id,
      url,
      events: ['article.published', 'article.updated', 'article.unpublished', 'article.deleted'],
      description: null,
      secret: 'whsec_AAAA',
      createdAt: clock.now(),
    });
  /** A round, and every attempt it leads to (refills included). */
  const run = async (deliver: DeliverWebhooks) => {
    await deliver.round();
    await deliver.drained();
  };

  beforeEach(() => {
    clock = new TestClock('2026-06-01T00:00:00.000Z');
    webhooks = new InMemoryWebhookRepository();
    ids = 0;
    const writeEvents = new RecordedWriteEvents(webhooks, clock, () => `evt_${++ids}`, 1_000);
    create = new CreateArticle(new InMemoryArticleRepository(undefined, webhooks.store, writeEvents), clock);
    receivers = new Receivers();
  });

  it('delivers each event once to each subscription, with the same event id, and logs it delivered', async () => {
    await subscribe('a');
    await subscribe('b');
    await create.execute({ title: 'one', content: 'c' }, OPEN_ACTOR);
    await run(deliverer());
    expect(receivers.received.map(({ url, eventId }) => [url, eventId]).sort()).toEqual([
      ['https://a.example', 'evt_1'],
      ['https://b.example', 'evt_1'],
    ]);
    await run(deliverer());
    expect(receivers.received).toHaveLength(2);
    expect(await webhooks.listDeliveries('a', 10)).toMatchObject([
      { eventId: 'evt_1', state: 'delivered', attempts: 1, lastStatus: 204, nextAttemptAt: null },
    ]);
  });

  it("keeps a subscription's share busy: each attempt that ends claims the next at once, not at the next round", async () => {
    await subscribe('a');
    for (let n = 1; n <= 10; n++) await create.execute({ title: `n${n}`, content: 'c' }, OPEN_ACTOR);
    await run(deliverer());
    expect(receivers.received).toHaveLength(10);
  });

  it.each([
    { schedule: "Standard Webhooks' (the default)", delays: STANDARD_RETRY_DELAYS_MS },
    { schedule: "an operator's", delays: [1_000, 90_000] },
  ])('retries on $schedule schedule, ± 20 %, and fails the delivery after its last retry', async ({ delays }) => {
    const attempts = delays.length + 1;
    await subscribe('a');
    await create.execute({ title: 'one', content: 'c' }, OPEN_ACTOR);
    receivers.answer = () => ({ status: 500 });
    for (let attempt = 1; attempt < attempts; attempt++) {
      await run(deliverer(() => (attempt % 2 === 0 ? 0 : 0.999_999), delays));
      const [pending] = await webhooks.listDeliveries('a', 1);
      if (!pending?.nextAttemptAt) throw new Error(`attempt ${attempt}: no next attempt`);
      const delay = pending.nextAttemptAt.getTime() - clock.now().getTime();
      const planned = delays[attempt - 1] as number;
      expect({ attempt, state: pending.state, delay }).toEqual({
        attempt,
        state: 'pending',
        delay: Math.round(planned * (attempt % 2 === 0 ? 0.8 : 1.2 - 0.4 * 0.000_001)),
      });
      // Not before it is due.
      await run(deliverer(undefined, delays));
      expect(receivers.received).toHaveLength(attempt);
      clock.set(pending.nextAttemptAt);
    }
    await run(deliverer(undefined, delays));
    expect(receivers.received).toHaveLength(attempts);
    expect(await webhooks.listDeliveries('a', 1)).toMatchObject([
      { state: 'failed', attempts, lastStatus: 500, lastError: 'answered 500', nextAttemptAt: null },
    ]);
  });

  it('ends the subscription on a 410', async () => {
    await subscribe('a');
    await create.execute({ title: 'one', content: 'c' }, OPEN_ACTOR);
    receivers.answer = () => ({ status: 410 });
    await run(deliverer());
    await expect(webhooks.listSubscriptions()).resolves.toEqual([]);
  });

  it('lets a receiver that does not answer hold only its own share; the others are delivered meanwhile', async () => {
    await subscribe('slow');
    await subscribe('fast');
    receivers.answer = (url) => (url.includes('slow') ? 'hold' : { status: 200 });
    for (const title of ['one', 'two', 'three', 'four']) await create.execute({ title, content: 'c' }, OPEN_ACTOR);
    const deliver = deliverer();
    const rounds: Promise<void>[] = [];
    for (let round = 0; round < 3; round++) {
      rounds.push(...(await deliver.round()));
      // The fast receiver's attempts end; the slow one's stay open.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const sent = (url: string) => receivers.received.filter((received) => received.url === url).length;
    expect({ slow: sent('https://slow.example'), fast: sent('https://fast.example') }).toEqual({ slow: 2, fast: 4 });
    expect((await webhooks.listDeliveries('fast', 10)).map((delivery) => delivery.state)).toEqual(
      Array(4).fill('delivered'),
    );
    receivers.release();
    await Promise.all(rounds);
  });

  it('attempts again, with the same id, a claim whose instance died: its lease passes', async () => {
    await subscribe('a');
    await create.execute({ title: 'one', content: 'c' }, OPEN_ACTOR);
    receivers.answer = () => 'hold';
    const dead = deliverer();
    const held = await dead.round();
    expect(await deliverer().round()).toHaveLength(0);

    clock.advance(LIMITS.leaseMs + 1);
    receivers.answer = () => ({ status: 204 });
    await run(deliverer());
    expect(receivers.received.map(({ eventId }) => eventId)).toEqual(['evt_1', 'evt_1']);
    expect(await webhooks.listDeliveries('a', 1)).toMatchObject([{ state: 'delivered', attempts: 1 }]);
    // The dead instance's late outcome is not recorded over it.
    receivers.release();
    await Promise.all(held);
    expect(await webhooks.listDeliveries('a', 1)).toMatchObject([{ state: 'delivered', attempts: 1, lastStatus: 204 }]);
  });

  it("sends a scheduled article's article.published at its publishedAt, not before", async () => {
    await subscribe('a');
    await create.execute(
      { title: 'later', content: 'c', publishedAt: new Date('2026-06-01T01:00:00.000Z') },
      OPEN_ACTOR,
    );
    await run(deliverer());
    expect(receivers.received).toEqual([]);
    clock.set('2026-06-01T01:00:00.000Z');
    await run(deliverer());
    expect(receivers.received.map(({ body }) => body)).toEqual(['article.published 1']);
  });
});
