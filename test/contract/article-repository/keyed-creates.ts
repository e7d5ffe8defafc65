import { type ArticleRepository, type IdempotencyClaim } from '../../../src/application';
import { type Article, UnknownReferenceError } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** Creates under an Idempotency-Key: one article per key, the stored answer replayed, expired keys purged. */
export function keyedCreatesContract(open: OpenContractSubject): void {
  describe('creates under an Idempotency-Key', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    const createdAt = new Date('2026-06-01T10:00:00.000Z');
    const DAY_MS = 24 * 3_600_000;
    const claim = (key: string, fingerprint = 'fingerprint-1', at = createdAt): IdempotencyClaim => ({
      key,
      fingerprint,
      expiredUpTo: new Date(at.getTime() - DAY_MS),
    });
    // Every article these tests create is visible.
    const allArticles = () => repository.listVisible({ moment: READ_MOMENT, limit: 1_000 });

    it.each([
      ['without references', () => aNewArticle().at(createdAt)],
      ['with new and existing names', () => aNewArticle().at(createdAt).withTags('new tag').withCategories('c')],
      ['with existing names only', () => aNewArticle().at(createdAt).withCategories('c')],
    ])('%s: creates once, then answers the stored article and writes nothing', async (_, body) => {
      await repository.create(aNewArticle().withCategories('c').build());
      const first = await repository.createWithKey(body().build(), claim('key-1'));
      const again = await repository.createWithKey(body().build(), claim('key-1'));

      expect(first.outcome).toBe('created');
      const created = (first as { article: Article }).article;
      expect(created).toMatchObject({ version: 1, createdAt, updatedAt: createdAt });
      expect(again).toEqual({ outcome: 'stored', fingerprint: 'fingerprint-1', article: created });
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      expect(await allArticles()).toHaveLength(2);
    });

    it('answers the article as it was created, even after it changed or was deleted', async () => {
      const first = await repository.createWithKey(aNewArticle().at(createdAt).withTags('t').build(), claim('k'));
      const created = (first as { article: Article }).article;
      await repository.update(
        created.id,
        someChanges().with({ title: 'changed' }).replacingTags('u').build(),
        undefined,
        ANY_WRITER,
      );
      await expect(repository.createWithKey(aNewArticle().build(), claim('k'))).resolves.toEqual({
        outcome: 'stored',
        fingerprint: 'fingerprint-1',
        article: created,
      });
      await repository.delete(created.id, new Date(), undefined, ANY_WRITER);
      await expect(repository.createWithKey(aNewArticle().build(), claim('k'))).resolves.toMatchObject({
        article: created,
      });
    });

    it('makes exactly one article of 20 concurrent creates under one key and one body', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () =>
          repository.createWithKey(aNewArticle().at(createdAt).withTags('shared').build(), claim('race')),
        ),
      );

      const created = outcomes.filter((outcome) => outcome.outcome === 'created');
      expect(created).toHaveLength(1);
      const article = (created[0] as { article: Article }).article;
      for (const outcome of outcomes) {
        if (outcome.outcome === 'in-progress') continue;
        expect(outcome).toEqual(
          outcome.outcome === 'created' ? created[0] : { outcome: 'stored', fingerprint: 'fingerprint-1', article },
        );
      }
      expect((await allArticles()).map((listed) => listed.id)).toEqual([article.id]);
      await expect(repository.listTerms('tag')).resolves.toEqual(article.tags);
    });

    it('makes exactly one article, linked, of 20 concurrent creates under one key naming existing terms', async () => {
      const seeded = await repository.create(aNewArticle().withTags('known').withCategories('kc').build());
      const body = () =>
        aNewArticle()
          .at(createdAt)
          .withTags('known')
          .withCategories({ id: seeded.categories[0]?.id ?? '' });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => repository.createWithKey(body().build(), claim('race-known'))),
      );

      const created = outcomes.filter((outcome) => outcome.outcome === 'created');
      expect(created).toHaveLength(1);
      const article = (created[0] as { article: Article }).article;
      expect([article.tags, article.categories]).toEqual([seeded.tags, seeded.categories]);
      for (const outcome of outcomes.filter((outcome) => outcome.outcome === 'stored')) {
        expect(outcome).toEqual({ outcome: 'stored', fingerprint: 'fingerprint-1', article });
      }
      await expect(repository.findById(article.id)).resolves.toEqual(article);
      expect(await allArticles()).toHaveLength(2);
    });

    it('keeps keys apart: another key creates another article', async () => {
      const one = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('a'));
      const other = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('A'));
      expect([one.outcome, other.outcome]).toEqual(['created', 'created']);
      expect(await allArticles()).toHaveLength(2);
    });

    it('answers the stored fingerprint to another request under the key, and writes nothing', async () => {
      await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('key'));
      const other = await repository.createWithKey(
        aNewArticle().at(createdAt).with({ title: 'other' }).withTags('never stored').build(),
        claim('key', 'fingerprint-2'),
      );

      expect(other).toMatchObject({ outcome: 'stored', fingerprint: 'fingerprint-1' });
      expect(await allArticles()).toHaveLength(1);
      await expect(repository.listTerms('tag')).resolves.toEqual([]);
    });

    it('stores no key when the create fails (unknown tag id), so that a retry creates once', async () => {
      const failing = aNewArticle().at(createdAt).withTags({ id: 'no-such-tag' }, 'named').build();
      await expect(repository.createWithKey(failing, claim('retry'))).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await allArticles()).toHaveLength(0);

      const retried = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('retry'));
      const again = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('retry'));
      expect([retried.outcome, again.outcome]).toEqual(['created', 'stored']);
      expect(await allArticles()).toHaveLength(1);
    });

    it('processes a key anew once its record is expired, even before it is purged', async () => {
      const first = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('old'));
      const justLive = new Date(createdAt.getTime() + DAY_MS - 1);
      const expiredAt = new Date(createdAt.getTime() + DAY_MS);

      await expect(
        repository.createWithKey(aNewArticle().at(justLive).build(), claim('old', 'fingerprint-2', justLive)),
      ).resolves.toMatchObject({ outcome: 'stored', fingerprint: 'fingerprint-1' });
      const anew = await repository.createWithKey(
        aNewArticle().at(expiredAt).build(),
        claim('old', 'fingerprint-2', expiredAt),
      );
      expect(anew.outcome).toBe('created');
      expect((anew as { article: Article }).article.id).not.toBe((first as { article: Article }).article.id);
      // The new record answers from now on.
      await expect(
        repository.createWithKey(aNewArticle().at(expiredAt).build(), claim('old', 'fingerprint-3', expiredAt)),
      ).resolves.toMatchObject({
        outcome: 'stored',
        fingerprint: 'fingerprint-2',
        article: { createdAt: expiredAt },
      });
    });

    it('purges expired records in bounded batches, oldest first, and keeps the live ones', async () => {
      const at = (hours: number) => new Date(createdAt.getTime() + hours * 3_600_000);
      for (const [index, hours] of [0, 1, 2, 3].entries()) {
        await repository.createWithKey(aNewArticle().at(at(hours)).build(), claim(`key ${index}`, 'f', at(hours)));
      }

      await expect(repository.deleteExpiredKeys(at(2), 2)).resolves.toBe(2);
      await expect(repository.deleteExpiredKeys(at(2), 2)).resolves.toBe(1);
      await expect(repository.deleteExpiredKeys(at(2), 2)).resolves.toBe(0);
      // Purged: processed anew even with a claim that would still count it live.
      const late = at(3);
      const live = { key: 'key 0', fingerprint: 'f', expiredUpTo: new Date(0) };
      await expect(repository.createWithKey(aNewArticle().at(late).build(), live)).resolves.toMatchObject({
        outcome: 'created',
      });
      await expect(
        repository.createWithKey(aNewArticle().at(late).build(), { ...live, key: 'key 3' }),
      ).resolves.toMatchObject({ outcome: 'stored' });
      // The articles stay: only the keys' records go.
      expect(await allArticles()).toHaveLength(5);
    });
  });
}
