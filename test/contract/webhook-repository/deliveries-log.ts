import { ANY_WRITER, aNewArticle, someChanges } from '../../support/builders';
import { aSubscription, at, type SharedWebhookSubject, useWebhookSubject } from './subject';

/** The deliveries log (newest created first, paged by position) and the outbox's summary. */
export function deliveriesLogContract(shared: SharedWebhookSubject): void {
  describe('deliveries log and pending summary', () => {
    const store = useWebhookSubject(shared);
    let subscriptionId: string;

    /** e1..e5: two creates, a write that makes two events at one time (unpublished, then scheduled), an update. */
    beforeEach(async () => {
      const subscription = aSubscription();
      subscriptionId = subscription.id;
      await store.webhooks.createSubscription(subscription);
      const first = await store.articles.create(aNewArticle().at(at(1)).build());
      const second = await store.articles.create(aNewArticle().at(at(2)).build());
      const rescheduled = someChanges().publishingOn(at(5000)).at(at(3)).build();
      await store.articles.update(first.id, rescheduled, undefined, ANY_WRITER);
      await store.articles.update(
        second.id,
        someChanges().with({ title: 'x' }).at(at(4)).build(),
        undefined,
        ANY_WRITER,
      );
    });

    it('lists newest created first, then by event id descending, and pages after a position', async () => {
      const log = await store.webhooks.listDeliveries(subscriptionId, 10);
      expect(log.map(({ eventId, type, createdAt }) => ({ eventId, type, createdAt }))).toEqual([
        { eventId: 'evt_000005', type: 'article.updated', createdAt: at(4) },
        { eventId: 'evt_000004', type: 'article.published', createdAt: at(3) },
        { eventId: 'evt_000003', type: 'article.unpublished', createdAt: at(3) },
        { eventId: 'evt_000002', type: 'article.published', createdAt: at(2) },
        { eventId: 'evt_000001', type: 'article.published', createdAt: at(1) },
      ]);
      expect(log[1]?.nextAttemptAt).toEqual(at(5000));

      const pages: string[][] = [];
      let before: { createdAt: Date; eventId: string } | undefined;
      for (;;) {
        const page = await store.webhooks.listDeliveries(subscriptionId, 2, before);
        if (page.length === 0) break;
        pages.push(page.map((delivery) => delivery.eventId));
        const last = page[page.length - 1] as (typeof page)[number];
        before = { createdAt: last.createdAt, eventId: last.eventId };
      }
      expect(pages).toEqual([['evt_000005', 'evt_000004'], ['evt_000003', 'evt_000002'], ['evt_000001']]);
      await expect(store.webhooks.listDeliveries('sub_unknown', 10)).resolves.toEqual([]);
    });

    it('summarises the pending deliveries: how many, and since when the oldest due one is due', async () => {
      await expect(store.webhooks.pendingSummary(at(0))).resolves.toEqual({ pending: 5, oldestDueAt: null });
      await expect(store.webhooks.pendingSummary(at(10))).resolves.toEqual({ pending: 5, oldestDueAt: at(1) });

      const [first, second, third] = await store.webhooks.claimDue(subscriptionId, at(10), at(40), 3);
      if (!first || !second || !third) throw new Error('expected three claims');
      await store.webhooks.recordOutcome(first, { kind: 'delivered', status: 200, at: at(11) });
      await store.webhooks.recordOutcome(second, { kind: 'failed', status: 410, error: 'gone' });
      // The third stays claimed: still pending, still due.
      await expect(store.webhooks.pendingSummary(at(10))).resolves.toEqual({ pending: 3, oldestDueAt: at(3) });
      await expect(store.webhooks.pendingSummary(at(2))).resolves.toEqual({ pending: 3, oldestDueAt: null });
    });
  });
}
