import { aNewArticle } from '../../support/builders';
import { aSubscription, at, type SharedWebhookSubject, useWebhookSubject } from './subject';

/** Subscriptions: stored as given, listed oldest first, found by id, deleted with their deliveries. */
export function subscriptionsContract(shared: SharedWebhookSubject): void {
  describe('subscriptions', () => {
    const store = useWebhookSubject(shared);

    it('stores subscriptions as given, lists them oldest first and finds each by id', async () => {
      await expect(store.webhooks.anySubscription()).resolves.toBe(false);
      await expect(store.webhooks.listSubscriptions()).resolves.toEqual([]);
      const newer = aSubscription({ createdAt: at(2), description: 'the search index', events: ['article.deleted'] });
      const older = aSubscription({ createdAt: at(1), events: ['article.updated', 'article.published'] });
      await store.webhooks.createSubscription(newer);
      await store.webhooks.createSubscription(older);

      await expect(store.webhooks.anySubscription()).resolves.toBe(true);
      await expect(store.webhooks.listSubscriptions()).resolves.toEqual([older, newer]);
      await expect(store.webhooks.findSubscription(newer.id)).resolves.toEqual(newer);
      await expect(store.webhooks.findSubscription('sub_unknown')).resolves.toBeNull();
    });

    it('lists subscriptions created in one millisecond in id order', async () => {
      const second = aSubscription({ id: 'sub_b', createdAt: at(5) });
      const first = aSubscription({ id: 'sub_a', createdAt: at(5) });
      await store.webhooks.createSubscription(second);
      await store.webhooks.createSubscription(first);
      const listed = await store.webhooks.listSubscriptions();
      expect(listed.map((subscription) => subscription.id)).toEqual(['sub_a', 'sub_b']);
    });

    it('deletes a subscription with its deliveries, and no other: false when none has the id', async () => {
      const gone = aSubscription();
      const kept = aSubscription();
      await store.webhooks.createSubscription(gone);
      await store.webhooks.createSubscription(kept);
      await store.articles.create(aNewArticle().at(at(1)).build());
      await expect(store.webhooks.listDeliveries(gone.id, 10)).resolves.toHaveLength(1);

      await expect(store.webhooks.deleteSubscription(gone.id)).resolves.toBe(true);
      await expect(store.webhooks.deleteSubscription(gone.id)).resolves.toBe(false);
      await expect(store.webhooks.findSubscription(gone.id)).resolves.toBeNull();
      await expect(store.webhooks.listDeliveries(gone.id, 10)).resolves.toEqual([]);
      await expect(store.webhooks.listDeliveries(kept.id, 10)).resolves.toHaveLength(1);
      await expect(store.webhooks.pendingSummary(at(1))).resolves.toEqual({ pending: 1, oldestDueAt: at(1) });
      await expect(store.webhooks.subscriptionsWithDueDeliveries(at(1), 10)).resolves.toEqual([kept.id]);

      await store.webhooks.deleteSubscription(kept.id);
      await expect(store.webhooks.anySubscription()).resolves.toBe(false);
      await expect(store.webhooks.pendingSummary(at(1))).resolves.toEqual({ pending: 0, oldestDueAt: null });
    });
  });
}
