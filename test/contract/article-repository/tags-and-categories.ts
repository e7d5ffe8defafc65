import type { ArticleRepository } from '../../../src/application';
import { UnknownReferenceError } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';
import { termNames } from './term-names';

/** Names whose code-point order differs from UTF-16 order and from any locale's order. */
const NAMES_IN_CODE_POINT_ORDER = ['B', 'a', 'z', 'é', 'ｚ', '😀'];

/** Tags and categories: named or referenced by id, created once, ordered by code point, kept apart. */
export function tagsAndCategoriesContract(open: OpenContractSubject): void {
  describe('tags and categories', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('creates named terms, then links the same ones when named again', async () => {
      const first = await repository.create(
        aNewArticle().withTags({ name: 'TS', description: 'TypeScript' }).withCategories('dev').build(),
      );
      const second = await repository.create(
        aNewArticle().withTags({ name: 'TS', description: 'ignored: the tag exists' }).withCategories('dev').build(),
      );

      expect(first.tags).toEqual([{ id: expect.any(String), name: 'TS', description: 'TypeScript' }]);
      expect(second.tags).toEqual(first.tags);
      expect(second.categories).toEqual(first.categories);
      await expect(repository.listTerms('tag')).resolves.toEqual(first.tags);
      await expect(repository.listTerms('category')).resolves.toEqual(first.categories);
    });

    it('links existing terms by id', async () => {
      const seeded = await repository.create(aNewArticle().withTags('one', 'two').withCategories('c').build());
      const [one, two] = seeded.tags;
      const linked = await repository.create(
        aNewArticle()
          .withTags({ id: two?.id ?? '' }, { id: one?.id ?? '' })
          .withCategories({ id: seeded.categories[0]?.id ?? '' })
          .build(),
      );
      expect(linked.tags).toEqual(seeded.tags);
      expect(linked.categories).toEqual(seeded.categories);
      await expect(repository.findById(linked.id)).resolves.toEqual(linked);
    });

    it('links a term once when it is referenced by id and by name', async () => {
      const seeded = await repository.create(aNewArticle().withTags('dup').build());
      const id = seeded.tags[0]?.id ?? '';
      const linked = await repository.create(aNewArticle().withTags({ id }, 'dup').build());
      expect(linked.tags).toEqual(seeded.tags);
      await expect(repository.findById(linked.id)).resolves.toEqual(linked);
    });

    it('orders terms by code point, in articles and in lists', async () => {
      const created = await repository.create(
        aNewArticle()
          .withTags(...[...NAMES_IN_CODE_POINT_ORDER].reverse())
          .withCategories(...[...NAMES_IN_CODE_POINT_ORDER].reverse())
          .build(),
      );
      expect(termNames(created)).toEqual(NAMES_IN_CODE_POINT_ORDER);
      expect(termNames(await repository.findById(created.id))).toEqual(NAMES_IN_CODE_POINT_ORDER);
      expect(termNames(await repository.findById(created.id), 'categories')).toEqual(NAMES_IN_CODE_POINT_ORDER);
      const [listed] = await repository.listVisible({ moment: READ_MOMENT, limit: 100 });
      expect(termNames(listed ?? null)).toEqual(NAMES_IN_CODE_POINT_ORDER);
      const tags = await repository.listTerms('tag');
      expect(tags.map((tag) => tag.name)).toEqual(NAMES_IN_CODE_POINT_ORDER);
    });

    it('compares names exactly: case and accents make different terms', async () => {
      const created = await repository.create(aNewArticle().withTags('ts', 'TS', 'Ts', '\u00e9', 'e\u0301').build());
      expect(termNames(created)).toHaveLength(5);
      await expect(repository.listTerms('tag')).resolves.toHaveLength(5);
    });

    it('keeps tags and categories apart: the same name is two terms', async () => {
      const created = await repository.create(aNewArticle().withTags('shared').withCategories('shared').build());
      expect(created.tags[0]?.id).not.toBe(created.categories[0]?.id);
      await expect(repository.listTerms('tag')).resolves.toHaveLength(1);
      await expect(repository.listTerms('category')).resolves.toHaveLength(1);
    });

    it('rejects an unknown id and writes nothing of that request', async () => {
      const attempt = repository.create(
        aNewArticle().withTags('brand-new', { id: 'no-such-tag' }).withCategories('also-new').build(),
      );
      await expect(attempt).rejects.toEqual(new UnknownReferenceError('tag', 'no-such-tag'));
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 100 })).resolves.toEqual([]);
      await expect(repository.listTerms('tag')).resolves.toEqual([]);
      await expect(repository.listTerms('category')).resolves.toEqual([]);
    });

    it('rejects an unknown category id after the tags resolved, and writes nothing', async () => {
      const attempt = repository.create(aNewArticle().withTags('new-tag').withCategories({ id: 'nope' }).build());
      await expect(attempt).rejects.toEqual(new UnknownReferenceError('category', 'nope'));
      await expect(repository.listTerms('tag')).resolves.toEqual([]);
    });

    it('rejects an unknown id beside terms that all exist, and writes nothing', async () => {
      const seeded = await repository.create(aNewArticle().withTags('known').withCategories('known-c').build());
      const unknownTag = repository.create(
        aNewArticle().withTags('known', { id: 'no-such-tag' }).withCategories('known-c').build(),
      );
      await expect(unknownTag).rejects.toEqual(new UnknownReferenceError('tag', 'no-such-tag'));
      const unknownCategory = repository.create(
        aNewArticle()
          .withTags({ id: seeded.tags[0]?.id ?? '' })
          .withCategories('known-c', { id: 'no-such-category' })
          .build(),
      );
      await expect(unknownCategory).rejects.toEqual(new UnknownReferenceError('category', 'no-such-category'));
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 100 })).resolves.toEqual([seeded]);
      await expect(repository.listTerms('tag')).resolves.toEqual(seeded.tags);
      await expect(repository.listTerms('category')).resolves.toEqual(seeded.categories);
    });

    it('creates a new name beside terms that exist, and links them all', async () => {
      const seeded = await repository.create(aNewArticle().withTags('old').withCategories('kept').build());
      const created = await repository.create(
        aNewArticle()
          .withTags({ id: seeded.tags[0]?.id ?? '' }, 'new')
          .withCategories('kept')
          .build(),
      );
      expect(termNames(created)).toEqual(['new', 'old']);
      expect(created.categories).toEqual(seeded.categories);
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      await expect(repository.listTerms('tag')).resolves.toHaveLength(2);
    });

    it('creates a tag named as an existing category: a name is found only among its own kind', async () => {
      const seeded = await repository.create(aNewArticle().withCategories('both').build());
      const created = await repository.create(aNewArticle().withTags('both').withCategories('both').build());
      expect(created.tags).toEqual([{ id: expect.any(String), name: 'both', description: null }]);
      expect(created.tags[0]?.id).not.toBe(seeded.categories[0]?.id);
      expect(created.categories).toEqual(seeded.categories);
      await expect(repository.findById(created.id)).resolves.toEqual(created);
    });

    it('ends with one term, linked everywhere, when concurrent writes name the same new term', async () => {
      const writes = Array.from({ length: 12 }, (_, index) =>
        repository.create(
          aNewArticle()
            .with({ title: `racer ${index}` })
            .withTags('race', `own-${index}`, 'race-2')
            .withCategories('race')
            .build(),
        ),
      );
      const created = await Promise.all(writes);

      const tags = await repository.listTerms('tag');
      expect(tags.filter((tag) => tag.name === 'race')).toHaveLength(1);
      expect(tags.filter((tag) => tag.name === 'race-2')).toHaveLength(1);
      await expect(repository.listTerms('category')).resolves.toHaveLength(1);
      const raceId = tags.find((tag) => tag.name === 'race')?.id;
      const listed = await repository.listVisible({ moment: READ_MOMENT, limit: 100 });
      expect(listed).toHaveLength(12);
      for (const article of listed) {
        expect(article.tags.map((tag) => tag.id)).toContain(raceId);
        expect(article.categories).toHaveLength(1);
      }
      expect(new Set(created.map((article) => article.id)).size).toBe(12);
    });

    it('keeps a term when no article links it any more', async () => {
      const created = await repository.create(aNewArticle().withTags('lonely').build());
      await repository.update(created.id, someChanges().replacingTags().build(), undefined, ANY_WRITER);
      await expect(repository.listTerms('tag')).resolves.toEqual([created.tags[0]]);
    });
  });
}
