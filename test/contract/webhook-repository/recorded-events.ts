import type { ClaimedDelivery } from '../../../src/application';
import { ArticleChangedError, RevisionNotFoundError, SlugTakenError, UnknownReferenceError } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, someChanges } from '../../support/builders';
import { aSubscription, at, claimedAt, type SharedWebhookSubject, useWebhookSubject } from './subject';

/** A guard's refusal: the writer may not. */
class Refused extends Error {}

const claim = (key: string) => ({ key, fingerprint: 'fingerprint', expiredUpTo: new Date(0) });

/** The events of claims, as the receiver gets them. */
const eventsOf = (claims: ClaimedDelivery[]) => claims.map((claimed) => claimed.event);

/**
 * The outbox: each write stores its events (eventsOfWrite) in its own transaction, for every
 * subscription of their type, due at once (a schedule: at its publishedAt); a write that fails,
 * or one made while nothing records, stores none.
 */
export function recordedEventsContract(shared: SharedWebhookSubject): void {
  describe('events recorded by article writes', () => {
    const store = useWebhookSubject(shared);

    it('a create that publishes: one article.published, the same event for every subscription, due at once', async () => {
      const first = aSubscription();
      const second = aSubscription();
      await store.webhooks.createSubscription(first);
      await store.webhooks.createSubscription(second);
      const created = await store.articles.create(aNewArticle().at(at(1)).build());

      const delivery = {
        eventId: 'evt_000001',
        type: 'article.published',
        attempts: 0,
        state: 'pending',
        lastStatus: null,
        lastError: null,
        nextAttemptAt: at(1),
        deliveredAt: null,
        createdAt: at(1),
      };
      await expect(store.webhooks.listDeliveries(first.id, 10)).resolves.toEqual([delivery]);
      await expect(store.webhooks.listDeliveries(second.id, 10)).resolves.toEqual([delivery]);
      await expect(claimedAt(store.webhooks, first.id, at(1))).resolves.toEqual([
        {
          subscriptionId: first.id,
          event: { id: 'evt_000001', type: 'article.published', article: created, occurredAt: at(1) },
          attempts: 0,
          lease: new Date(at(1).getTime() + 60_000),
        },
      ]);
    });

    it('a draft records nothing; a scheduled create records its article.published, due at its publishedAt', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      await store.articles.create(aNewArticle().invisible().at(at(1)).build());
      const scheduled = await store.articles.create(aNewArticle().at(at(1)).publishedOn(at(3600)).build());

      const log = await store.webhooks.listDeliveries(subscription.id, 10);
      expect(log).toMatchObject([{ type: 'article.published', nextAttemptAt: at(3600), createdAt: at(1) }]);
      await expect(claimedAt(store.webhooks, subscription.id, at(3599))).resolves.toEqual([]);
      const claims = await claimedAt(store.webhooks, subscription.id, at(3600));
      expect(eventsOf(claims)).toEqual([
        { id: log[0]?.eventId, type: 'article.published', article: scheduled, occurredAt: at(3600) },
      ]);
    });

    it('updates: updated while published, published when made public, unpublished when made a draft', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      const published = await store.articles.create(aNewArticle().at(at(1)).build());
      const draft = await store.articles.create(aNewArticle().invisible().at(at(1)).build());
      const edited = await store.articles.update(
        published.id,
        someChanges().with({ title: 'Edited' }).at(at(2)).build(),
        undefined,
        ANY_WRITER,
      );
      const madePublic = await store.articles.update(
        draft.id,
        someChanges().publishingNow(at(3)).at(at(3)).build(),
        undefined,
        ANY_WRITER,
      );
      const unpublished = await store.articles.update(
        published.id,
        someChanges().publishingOn(null).at(at(4)).build(),
        undefined,
        ANY_WRITER,
      );
      // A draft edited stays a draft: nothing.
      await store.articles.update(
        published.id,
        someChanges().with({ content: 'More' }).at(at(5)).build(),
        undefined,
        ANY_WRITER,
      );

      const events = eventsOf(await claimedAt(store.webhooks, subscription.id, at(10)));
      expect(events.map(({ type, article, occurredAt }) => ({ type, article, occurredAt }))).toEqual([
        { type: 'article.published', article: published, occurredAt: at(1) },
        { type: 'article.updated', article: edited, occurredAt: at(2) },
        { type: 'article.published', article: madePublic, occurredAt: at(3) },
        { type: 'article.unpublished', article: unpublished, occurredAt: at(4) },
      ]);
      expect(new Set(events.map((event) => event.id)).size).toBe(4);
    });

    it('a delete of a published article: article.deleted with the article as it was; of a draft: nothing', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      const published = await store.articles.create(aNewArticle().at(at(1)).withTags('kept').build());
      const draft = await store.articles.create(aNewArticle().invisible().at(at(1)).build());
      await store.articles.delete(published.id, at(2), undefined, ANY_WRITER);
      await store.articles.delete(draft.id, at(2), undefined, ANY_WRITER);

      const events = eventsOf(await claimedAt(store.webhooks, subscription.id, at(10)));
      expect(events.map(({ type, article, occurredAt }) => ({ type, article, occurredAt }))).toEqual([
        { type: 'article.published', article: published, occurredAt: at(1) },
        { type: 'article.deleted', article: published, occurredAt: at(2) },
      ]);
    });

    it('restores: updated when it stays published, published when a deleted article comes back', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      const created = await store.articles.create(aNewArticle().with({ title: 'v1' }).at(at(1)).build());
      await store.articles.update(
        created.id,
        someChanges().with({ title: 'v2' }).at(at(2)).build(),
        undefined,
        ANY_WRITER,
      );
      // Revision 1: the article as created.
      const restored = await store.articles.restore(created.id, 1, at(3));
      await store.articles.delete(created.id, at(4), undefined, ANY_WRITER);
      // Revision 3: the article as the restore left it, before its delete.
      const back = await store.articles.restore(created.id, 3, at(5));

      const events = eventsOf(await claimedAt(store.webhooks, subscription.id, at(10)));
      expect(events.map(({ type, article, occurredAt }) => ({ type, article, occurredAt })).slice(2)).toEqual([
        { type: 'article.updated', article: restored, occurredAt: at(3) },
        { type: 'article.deleted', article: restored, occurredAt: at(4) },
        { type: 'article.published', article: back, occurredAt: at(5) },
      ]);
      expect(back.title).toBe('v1');
    });

    it('each subscription gets only the types it takes, and only events written after it exists', async () => {
      const deletions = aSubscription({ events: ['article.deleted'] });
      const everything = aSubscription();
      await store.webhooks.createSubscription(deletions);
      await store.webhooks.createSubscription(everything);
      const article = await store.articles.create(aNewArticle().at(at(1)).build());
      await store.articles.update(
        article.id,
        someChanges().with({ title: 'x' }).at(at(2)).build(),
        undefined,
        ANY_WRITER,
      );
      const late = aSubscription();
      await store.webhooks.createSubscription(late);
      await store.articles.delete(article.id, at(3), undefined, ANY_WRITER);

      const typesOf = async (id: string) =>
        (await store.webhooks.listDeliveries(id, 10)).map((delivery) => delivery.type).reverse();
      await expect(typesOf(deletions.id)).resolves.toEqual(['article.deleted']);
      await expect(typesOf(everything.id)).resolves.toEqual([
        'article.published',
        'article.updated',
        'article.deleted',
      ]);
      await expect(typesOf(late.id)).resolves.toEqual(['article.deleted']);
    });

    it('creates with terms, new or known, and under an Idempotency-Key: each records its article; a replay nothing', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      const withNewTerms = await store.articles.create(
        aNewArticle().withTags('news').withCategories('c').at(at(1)).build(),
      );
      const withKnownTerms = await store.articles.create(
        aNewArticle()
          .withTags('news', { id: withNewTerms.tags[0]?.id as string })
          .at(at(2))
          .build(),
      );
      const keyedArticle = aNewArticle().at(at(3)).build();
      const keyed = await store.articles.createWithKey(keyedArticle, claim('k1'));
      const keyedWithTerms = await store.articles.createWithKey(
        aNewArticle().withTags('news', 'fresh').at(at(4)).build(),
        claim('k2'),
      );
      await expect(store.articles.createWithKey(keyedArticle, claim('k1'))).resolves.toMatchObject({
        outcome: 'stored',
      });
      if (keyed.outcome !== 'created' || keyedWithTerms.outcome !== 'created') throw new Error('not created');

      const events = eventsOf(await claimedAt(store.webhooks, subscription.id, at(10)));
      expect(events.map(({ type, article }) => ({ type, article }))).toEqual(
        [withNewTerms, withKnownTerms, keyed.article, keyedWithTerms.article].map((article) => ({
          type: 'article.published',
          article,
        })),
      );
    });

    it('records nothing while WriteEvents does not record, and again once it does', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      store.events.on = false;
      const plain = await store.articles.create(aNewArticle().at(at(1)).build());
      const linked = await store.articles.create(aNewArticle().withTags('t').at(at(1)).build());
      await store.articles.create(aNewArticle().withTags('t').at(at(1)).build());
      await store.articles.createWithKey(aNewArticle().at(at(1)).build(), claim('k'));
      await store.articles.update(
        plain.id,
        someChanges().with({ title: 'x' }).at(at(2)).build(),
        undefined,
        ANY_WRITER,
      );
      await store.articles.delete(linked.id, at(3), undefined, ANY_WRITER);
      await store.articles.restore(plain.id, 1, at(4));
      await expect(store.webhooks.listDeliveries(subscription.id, 10)).resolves.toEqual([]);
      await expect(store.webhooks.pendingSummary(at(10))).resolves.toEqual({ pending: 0, oldestDueAt: null });

      store.events.on = true;
      await store.articles.update(
        plain.id,
        someChanges().with({ title: 'y' }).at(at(5)).build(),
        undefined,
        ANY_WRITER,
      );
      await expect(store.webhooks.listDeliveries(subscription.id, 10)).resolves.toMatchObject([
        { type: 'article.updated', createdAt: at(5) },
      ]);
    });

    it('a write that fails records nothing: unknown references, a taken slug, a refusal, a changed version', async () => {
      const subscription = aSubscription();
      await store.webhooks.createSubscription(subscription);
      const article = await store.articles.create(aNewArticle().withSlug('taken').at(at(1)).build());
      const refuse = () => {
        throw new Refused();
      };
      const changes = () => someChanges().with({ title: 'x' }).at(at(2));

      await expect(
        store.articles.create(aNewArticle().withTags('fine', { id: 'nope' }).at(at(2)).build()),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        store.articles.createWithKey(aNewArticle().withTags({ id: 'nope' }).at(at(2)).build(), claim('k')),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(store.articles.create(aNewArticle().withSlug('taken').at(at(2)).build())).rejects.toBeInstanceOf(
        SlugTakenError,
      );
      await expect(store.articles.update(article.id, changes().build(), undefined, refuse)).rejects.toBeInstanceOf(
        Refused,
      );
      await expect(
        store.articles.update(article.id, changes().replacingTags({ id: 'nope' }).build(), undefined, ANY_WRITER),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        store.articles.update(article.id, changes().build(), { versions: [7] }, ANY_WRITER),
      ).rejects.toBeInstanceOf(ArticleChangedError);
      await expect(store.articles.delete(article.id, at(2), undefined, refuse)).rejects.toBeInstanceOf(Refused);
      await expect(store.articles.restore(article.id, 9, at(2))).rejects.toBeInstanceOf(RevisionNotFoundError);

      const log = await store.webhooks.listDeliveries(subscription.id, 10);
      expect(log).toMatchObject([{ type: 'article.published', createdAt: at(1) }]);
      await expect(store.articles.findById(article.id)).resolves.toEqual(article);
    });
  });
}
