import type { ArticleRepository, KeyRepository, VisibleArticlesFilter } from '../../../src/application';
import { type Article, type Author, foldForSearch } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { aNewKey } from '../key-repository/new-key';
import { type OpenContractSubject, useContractStore } from './subject';

/**
 * The author of an article: the one of the key that created it, on every read (by id, by slug,
 * pages, the whole list, search, revisions and restores), and the `author` filter of lists.
 */
export function authorsContract(open: OpenContractSubject): void {
  describe('authors of articles', () => {
    let repository: ArticleRepository;
    let keys: KeyRepository;
    useContractStore(open, (store) => {
      repository = store.repository;
      keys = store.keys;
    });

    const authorNamed = async (authorName: string): Promise<Author> =>
      (await keys.create(aNewKey({ authorName }))).author;

    async function streamed(filter: VisibleArticlesFilter): Promise<Article[]> {
      const all: Article[] = [];
      for await (const chunk of repository.streamVisible(filter)) all.push(...chunk);
      return all;
    }

    it('answers the author on the create and on every read; null without one', async () => {
      const ada = await authorNamed('Ada Lovelace');
      const created = await repository.create(aNewArticle().with({ title: 'Notes' }).byAuthor(ada).build());
      const anonymous = await repository.create(aNewArticle().with({ title: 'Anonymous' }).build());
      expect(created.author).toEqual(ada);
      expect(anonymous.author).toBeNull();
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      await expect(repository.findBySlug('notes')).resolves.toEqual({ found: 'current', article: created });
      const page = await repository.listVisible({ moment: READ_MOMENT, limit: 10 });
      expect(page.map((article) => article.author)).toEqual([ada, null]);
      const newest = await repository.listVisible({ moment: READ_MOMENT, limit: 10, order: 'newest' });
      expect(newest.map((article) => article.author)).toEqual([null, ada]);
      await expect(streamed({ moment: READ_MOMENT })).resolves.toEqual([created, anonymous]);
      const found = await repository.listVisible({
        moment: READ_MOMENT,
        limit: 10,
        foldedQuery: foldForSearch('note'),
      });
      expect(found).toEqual([created]);
    });

    it('keeps the author through creates with terms, under an Idempotency-Key, and updates', async () => {
      const ada = await authorNamed('Ada Lovelace');
      const tagged = await repository.create(aNewArticle().byAuthor(ada).withTags('new tag').build());
      expect(tagged.author).toEqual(ada);
      await expect(repository.findById(tagged.id)).resolves.toEqual(tagged);
      const claim = { key: 'k1', fingerprint: 'f', expiredUpTo: new Date('2000-01-01T00:00:00.000Z') };
      const keyed = await repository.createWithKey(aNewArticle().byAuthor(ada).withTags('new tag').build(), claim);
      expect(keyed).toMatchObject({ outcome: 'created', article: { author: ada } });
      const again = await repository.createWithKey(aNewArticle().byAuthor(ada).build(), claim);
      expect(again).toMatchObject({ outcome: 'stored', article: { author: ada } });
      const updated = await repository.update(
        tagged.id,
        someChanges().with({ title: 'changed' }).build(),
        undefined,
        ANY_WRITER,
      );
      expect(updated?.author).toEqual(ada);
    });

    it('keeps the author in revisions, and brings it back with a deleted article restored', async () => {
      const ada = await authorNamed('Ada Lovelace');
      const created = await repository.create(aNewArticle().byAuthor(ada).build());
      await repository.update(created.id, someChanges().with({ title: 'second' }).build(), undefined, ANY_WRITER);
      const [revision] = (await repository.listRevisions(created.id, {})) ?? [];
      expect(revision?.article.author).toEqual(ada);
      await repository.delete(created.id, new Date('2026-02-04T00:00:00.000Z'), undefined, ANY_WRITER);
      const restored = await repository.restore(created.id, 1, new Date('2026-02-05T00:00:00.000Z'));
      expect(restored.author).toEqual(ada);
      await expect(repository.findById(created.id)).resolves.toMatchObject({ author: ada });
    });

    it('lists only the articles of the author whose slug is asked, on every list shape', async () => {
      const ada = await authorNamed('Ada Lovelace');
      const grace = await authorNamed('Grace Hopper');
      const a1 = await repository.create(aNewArticle().with({ title: 'a one' }).byAuthor(ada).withTags('t').build());
      await repository.create(aNewArticle().with({ title: 'g one' }).byAuthor(grace).withTags('t').build());
      const a2 = await repository.create(aNewArticle().with({ title: 'a two' }).byAuthor(ada).build());
      await repository.create(aNewArticle().with({ title: 'none' }).build());
      const titles = (articles: Article[]) => articles.map((article) => article.title);
      const page = (filter: Partial<VisibleArticlesFilter>) =>
        repository.listVisible({ moment: READ_MOMENT, limit: 10, ...filter });

      expect(titles(await page({ author: ada.slug }))).toEqual(['a one', 'a two']);
      expect(titles(await page({ author: ada.slug, afterId: a1.id }))).toEqual(['a two']);
      expect(titles(await page({ author: ada.slug, order: 'newest' }))).toEqual(['a two', 'a one']);
      expect(titles(await page({ author: ada.slug, tagName: 't' }))).toEqual(['a one']);
      expect(titles(await page({ author: grace.slug, tagName: 't', featured: false }))).toEqual(['g one']);
      expect(titles(await page({ author: ada.slug, foldedQuery: foldForSearch('two') }))).toEqual(['a two']);
      expect(titles(await page({ author: ada.slug, foldedQuery: 'o' }))).toEqual(['a one', 'a two']);
      expect(await page({ author: 'nobody' })).toEqual([]);
      expect(await page({ author: 'nobody', tagName: 't' })).toEqual([]);
      await expect(streamed({ moment: READ_MOMENT, author: ada.slug })).resolves.toEqual([a1, a2]);
      await expect(streamed({ moment: READ_MOMENT, author: grace.slug, tagName: 'nope' })).resolves.toEqual([]);
      await expect(streamed({ moment: READ_MOMENT, author: 'nobody' })).resolves.toEqual([]);
    });
  });
}
