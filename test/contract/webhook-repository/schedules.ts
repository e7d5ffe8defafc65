import type { Article } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, someChanges } from '../../support/builders';
import { aSubscription, at, claimedAt, pendingOf, type SharedWebhookSubject, useWebhookSubject } from './subject';

/**
 * A scheduled article's article.published waits in the outbox until its publishedAt; a later
 * write to the article cancels it while no attempt was made and it is not due, and records it
 * again, with the article as that write left it, when the article is still scheduled.
 */
export function schedulesContract(shared: SharedWebhookSubject): void {
  describe('scheduled publication events', () => {
    const store = useWebhookSubject(shared);
    let subscriptionId: string;
    let scheduled: Article;

    beforeEach(async () => {
      const subscription = aSubscription();
      subscriptionId = subscription.id;
      await store.webhooks.createSubscription(subscription);
      scheduled = await store.articles.create(aNewArticle().at(at(0)).publishedOn(at(1000)).build());
    });

    const update = (changes: ReturnType<typeof someChanges>) =>
      store.articles.update(scheduled.id, changes.build(), undefined, ANY_WRITER);

    it('rescheduling moves it: one pending article.published, due at the new time, with the article as moved', async () => {
      const moved = await update(someChanges().publishingOn(at(2000)).at(at(10)));
      await expect(pendingOf(store.webhooks, subscriptionId)).resolves.toEqual([
        { type: 'article.published', nextAttemptAt: at(2000), attempts: 0 },
      ]);
      await expect(claimedAt(store.webhooks, subscriptionId, at(1999))).resolves.toEqual([]);
      const [claimed] = await claimedAt(store.webhooks, subscriptionId, at(2000));
      expect(claimed?.event).toMatchObject({ type: 'article.published', article: moved, occurredAt: at(2000) });
    });

    it('an edit that keeps the schedule records it again with the edited article; a draft or a delete cancels it', async () => {
      const edited = await update(someChanges().with({ title: 'Edited' }).at(at(10)));
      await expect(pendingOf(store.webhooks, subscriptionId)).resolves.toEqual([
        { type: 'article.published', nextAttemptAt: at(1000), attempts: 0 },
      ]);
      const [claimed] = await claimedAt(store.webhooks, subscriptionId, at(1000));
      expect(claimed?.event.article).toEqual(edited);

      const other = await store.articles.create(aNewArticle().at(at(0)).publishedOn(at(1000)).build());
      const third = await store.articles.create(aNewArticle().at(at(0)).publishedOn(at(1000)).build());
      await store.articles.update(other.id, someChanges().publishingOn(null).at(at(20)).build(), undefined, ANY_WRITER);
      await store.articles.delete(third.id, at(20), undefined, ANY_WRITER);
      // The first article's delivery, claimed above, is all that is left: nothing else was recorded.
      const log = await store.webhooks.listDeliveries(subscriptionId, 10);
      expect(log.map((delivery) => delivery.eventId)).toEqual([claimed?.event.id]);
    });

    it('a restore of a scheduled revision records the schedule that revision had', async () => {
      await update(someChanges().publishingOn(at(2000)).at(at(10)));
      const restored = await store.articles.restore(scheduled.id, 1, at(20));
      await expect(pendingOf(store.webhooks, subscriptionId)).resolves.toEqual([
        { type: 'article.published', nextAttemptAt: at(1000), attempts: 0 },
      ]);
      const [claimed] = await claimedAt(store.webhooks, subscriptionId, at(1000));
      expect(claimed?.event.article).toEqual(restored);
    });

    it('keeps one already due: the event happened; a write after it is an update of a published article', async () => {
      const edited = await update(someChanges().with({ title: 'Edited' }).at(at(1500)));
      await expect(pendingOf(store.webhooks, subscriptionId)).resolves.toEqual([
        { type: 'article.published', nextAttemptAt: at(1000), attempts: 0 },
        { type: 'article.updated', nextAttemptAt: at(1500), attempts: 0 },
      ]);
      const claims = await claimedAt(store.webhooks, subscriptionId, at(1500));
      expect(claims.map((claimed) => claimed.event.article)).toEqual([scheduled, edited]);
    });

    it('keeps one attempted already, though its retry is later than the write', async () => {
      const [first] = await claimedAt(store.webhooks, subscriptionId, at(1000));
      if (!first) throw new Error('nothing claimed');
      await store.webhooks.recordOutcome(first, { kind: 'retry', status: 503, error: null, nextAttemptAt: at(3000) });
      await update(someChanges().publishingOn(null).at(at(2000)));
      await expect(pendingOf(store.webhooks, subscriptionId)).resolves.toEqual([
        { type: 'article.published', nextAttemptAt: at(3000), attempts: 1 },
        { type: 'article.unpublished', nextAttemptAt: at(2000), attempts: 0 },
      ]);
    });
  });
}
