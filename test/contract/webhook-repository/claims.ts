import type { ClaimedDelivery } from '../../../src/application';
import type { Article } from '../../../src/domain';
import { aNewArticle } from '../../support/builders';
import { aSubscription, at, type SharedWebhookSubject, useWebhookSubject } from './subject';

const lease = (now: Date) => new Date(now.getTime() + 30_000);

/**
 * Claims: a subscription's due deliveries, oldest due first, each to one claimer until its lease
 * ends; the outcome of an attempt, stored only by the claim that still holds the delivery.
 */
export function claimsContract(shared: SharedWebhookSubject): void {
  describe('claims and outcomes', () => {
    const store = useWebhookSubject(shared);
    let subscriptionId: string;

    beforeEach(async () => {
      const subscription = aSubscription();
      subscriptionId = subscription.id;
      await store.webhooks.createSubscription(subscription);
    });

    const publishAt = (seconds: number, createdAt = at(0)): Promise<Article> =>
      store.articles.create(aNewArticle().at(createdAt).publishedOn(at(seconds)).build());
    const claim = (now: Date, limit = 100) => store.webhooks.claimDue(subscriptionId, now, lease(now), limit);
    const articleIds = (claims: ClaimedDelivery[]) => claims.map((claimed) => claimed.event.article.id);
    const onlyClaim = async (now: Date) => {
      const [claimed, ...more] = await claim(now);
      if (!claimed || more.length > 0) throw new Error(`expected one claim, got ${more.length + (claimed ? 1 : 0)}`);
      return claimed;
    };

    it('claims due deliveries only, oldest due first, at most the limit, and not again while the lease lasts', async () => {
      const third = await publishAt(30);
      const first = await publishAt(10);
      const second = await publishAt(20);
      const later = await publishAt(100);

      const firstClaims = await claim(at(50), 2);
      expect(articleIds(firstClaims)).toEqual([first.id, second.id]);
      expect(firstClaims.every((claimed) => claimed.lease.getTime() === lease(at(50)).getTime())).toBe(true);
      await expect(claim(at(50))).resolves.toMatchObject([{ event: { article: { id: third.id } } }]);
      await expect(claim(at(60))).resolves.toEqual([]);
      // A lease ends when its instant has passed.
      await expect(claim(lease(at(50)))).resolves.toEqual([]);
      const afterLease = new Date(lease(at(50)).getTime() + 1);
      expect(articleIds(await claim(afterLease))).toEqual([first.id, second.id, third.id]);
      // The three are claimed again until 30 s after that: at 100 only the later one is claimable.
      expect(articleIds(await claim(at(100)))).toEqual([later.id]);
    });

    it('claims only its subscription’s deliveries, and tells which subscriptions have some due', async () => {
      const other = aSubscription();
      await store.webhooks.createSubscription(other);
      await publishAt(10);
      // Created after the first event: it has only the second.
      const quiet = aSubscription();
      await store.webhooks.createSubscription(quiet);
      await publishAt(500);

      expect((await store.webhooks.subscriptionsWithDueDeliveries(at(10), 10)).sort()).toEqual(
        [subscriptionId, other.id].sort(),
      );
      await expect(store.webhooks.subscriptionsWithDueDeliveries(at(10), 1)).resolves.toHaveLength(1);
      await expect(store.webhooks.subscriptionsWithDueDeliveries(at(9), 10)).resolves.toEqual([]);
      await claim(at(10));
      await expect(store.webhooks.subscriptionsWithDueDeliveries(at(10), 10)).resolves.toEqual([other.id]);
      await expect(store.webhooks.claimDue(other.id, at(10), lease(at(10)), 10)).resolves.toHaveLength(1);
      await expect(store.webhooks.subscriptionsWithDueDeliveries(at(10), 10)).resolves.toEqual([]);
      // Its lease over, the undelivered one is due again; the quiet subscription's only at 500.
      const over = new Date(lease(at(10)).getTime() + 1);
      expect((await store.webhooks.subscriptionsWithDueDeliveries(over, 10)).sort()).toEqual(
        [subscriptionId, other.id].sort(),
      );
      await expect(store.webhooks.subscriptionsWithDueDeliveries(at(500), 10)).resolves.toContain(quiet.id);
    });

    it('gives each delivery to one of many claims made at once', async () => {
      const count = 30;
      for (let n = 0; n < count; n++) await publishAt(n);
      const now = at(100);
      const rounds = await Promise.all(Array.from({ length: 6 }, () => claim(now, 10)));
      const claimed = rounds.flat().map((delivery) => delivery.event.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      const rest = (await claim(now)).map((delivery) => delivery.event.id);
      expect(new Set([...claimed, ...rest]).size).toBe(count);
      expect(claimed.length + rest.length).toBe(count);
    });

    it('stores a delivered outcome: one attempt, its status and time; never claimed again', async () => {
      await publishAt(10);
      const claimed = await onlyClaim(at(10));
      await expect(store.webhooks.recordOutcome(claimed, { kind: 'delivered', status: 204, at: at(11) })).resolves.toBe(
        true,
      );
      await expect(store.webhooks.listDeliveries(subscriptionId, 10)).resolves.toEqual([
        {
          eventId: claimed.event.id,
          type: 'article.published',
          attempts: 1,
          state: 'delivered',
          lastStatus: 204,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: at(11),
          createdAt: at(0),
        },
      ]);
      await expect(claim(at(10_000))).resolves.toEqual([]);
      // The claim ended with its outcome: it records nothing more.
      await expect(store.webhooks.recordOutcome(claimed, { kind: 'delivered', status: 200, at: at(12) })).resolves.toBe(
        false,
      );
    });

    it('stores a retry: one more attempt, due again at its time (before the lease would have ended)', async () => {
      await publishAt(10);
      const claimed = await onlyClaim(at(10));
      const retry = { kind: 'retry', status: 500, error: 'HTTP 500', nextAttemptAt: at(15) } as const;
      await expect(store.webhooks.recordOutcome(claimed, retry)).resolves.toBe(true);
      await expect(store.webhooks.listDeliveries(subscriptionId, 10)).resolves.toMatchObject([
        {
          attempts: 1,
          state: 'pending',
          lastStatus: 500,
          lastError: 'HTTP 500',
          nextAttemptAt: at(15),
          deliveredAt: null,
        },
      ]);
      await expect(claim(at(14))).resolves.toEqual([]);
      const again = await onlyClaim(at(15));
      expect(again).toMatchObject({ attempts: 1, event: claimed.event });
      const failed = { kind: 'failed', status: null, error: 'connection refused' } as const;
      await expect(store.webhooks.recordOutcome(again, failed)).resolves.toBe(true);
      await expect(store.webhooks.listDeliveries(subscriptionId, 10)).resolves.toMatchObject([
        { attempts: 2, state: 'failed', lastStatus: null, lastError: 'connection refused', nextAttemptAt: null },
      ]);
      await expect(claim(at(10_000))).resolves.toEqual([]);
    });

    it('refuses the outcome of a claim whose lease passed and another claim took over', async () => {
      await publishAt(10);
      const stale = await onlyClaim(at(10));
      const current = await onlyClaim(new Date(lease(at(10)).getTime() + 1));
      await expect(store.webhooks.recordOutcome(stale, { kind: 'delivered', status: 200, at: at(60) })).resolves.toBe(
        false,
      );
      await expect(store.webhooks.listDeliveries(subscriptionId, 10)).resolves.toMatchObject([
        { attempts: 0, state: 'pending', lastStatus: null },
      ]);
      await expect(store.webhooks.recordOutcome(current, { kind: 'delivered', status: 200, at: at(61) })).resolves.toBe(
        true,
      );
      await expect(store.webhooks.listDeliveries(subscriptionId, 10)).resolves.toMatchObject([
        { attempts: 1, state: 'delivered', deliveredAt: at(61) },
      ]);
    });
  });
}
