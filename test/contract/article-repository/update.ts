import type { ArticleRepository } from '../../../src/application';
import { UnknownReferenceError } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';
import { termNames } from './term-names';

/** Updating an article: the fields and links given, all or nothing, updatedAt never moved back. */
export function updateContract(open: OpenContractSubject): void {
  describe('update', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('applies only the fields given and sets updatedAt, leaving createdAt and links', async () => {
      const created = await repository.create(aNewArticle().withTags('keep').withCategories('keep-c').build());
      const updatedAt = new Date(created.createdAt.getTime() + 60_000);
      const updated = await repository.update(
        created.id,
        someChanges().with({ title: 'new title' }).at(updatedAt).build(),
        undefined,
        ANY_WRITER,
      );

      expect(updated).toEqual({ ...created, title: 'new title', updatedAt, version: 2 });
      await expect(repository.findById(created.id)).resolves.toEqual(updated);
    });

    it('with no field only refreshes updatedAt', async () => {
      const created = await repository.create(aNewArticle().build());
      const updatedAt = new Date(created.createdAt.getTime() + 1);
      const updated = await repository.update(created.id, someChanges().at(updatedAt).build(), undefined, ANY_WRITER);
      expect(updated).toEqual({ ...created, updatedAt, version: 2 });
    });

    it('sets every writable field, title to null included', async () => {
      const created = await repository.create(aNewArticle().build());
      const fields = { title: null, description: 'new d', content: ' ', featured: true };
      const updated = await repository.update(
        created.id,
        someChanges().with(fields).publishingOn(null).build(),
        undefined,
        ANY_WRITER,
      );
      expect(updated).toMatchObject({ ...fields, publishedAt: null });
      await expect(repository.findById(created.id)).resolves.toMatchObject({ ...fields, publishedAt: null });
    });

    it('replaces the whole set of links of a kind that is given, and only that kind', async () => {
      const created = await repository.create(aNewArticle().withTags('a', 'b').withCategories('c').build());
      const updated = await repository.update(
        created.id,
        someChanges().replacingTags('b', 'x').build(),
        undefined,
        ANY_WRITER,
      );
      expect(termNames(updated)).toEqual(['b', 'x']);
      expect(updated?.categories).toEqual(created.categories);
      expect(termNames(await repository.findById(created.id))).toEqual(['b', 'x']);
    });

    it('clears the links of a kind given as empty', async () => {
      const created = await repository.create(aNewArticle().withTags('a').withCategories('c').build());
      const updated = await repository.update(
        created.id,
        someChanges().replacingTags().replacingCategories().build(),
        undefined,
        ANY_WRITER,
      );
      expect(updated?.tags).toEqual([]);
      expect(updated?.categories).toEqual([]);
      await expect(repository.findById(created.id)).resolves.toMatchObject({ tags: [], categories: [] });
    });

    it('answers null for an unknown id and creates nothing, not even named terms', async () => {
      const result = await repository.update(
        9999,
        someChanges().with({ title: 'x' }).replacingTags('ghost').build(),
        undefined,
        ANY_WRITER,
      );
      expect(result).toBeNull();
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 100 })).resolves.toEqual([]);
      await expect(repository.listTerms('tag')).resolves.toEqual([]);
    });

    it('is all or nothing: an unknown reference leaves fields, links and terms as they were', async () => {
      const created = await repository.create(aNewArticle().withTags('kept').build());
      const attempt = repository.update(
        created.id,
        someChanges().with({ title: 'lost' }).replacingTags('new-one', { id: 'missing' }).build(),
        undefined,
        ANY_WRITER,
      );
      await expect(attempt).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      await expect(repository.listTerms('tag')).resolves.toEqual(created.tags);
    });

    it('never moves updatedAt back: an update stamped earlier than the stored one keeps the later stamp', async () => {
      // What happens when two updates commit in another order than the one they read the clock in.
      const created = await repository.create(aNewArticle().build());
      const later = new Date(created.createdAt.getTime() + 5_000);
      const earlier = new Date(created.createdAt.getTime() + 1_000);
      await repository.update(
        created.id,
        someChanges().with({ title: 'later' }).at(later).build(),
        undefined,
        ANY_WRITER,
      );
      const updated = await repository.update(
        created.id,
        someChanges().with({ title: 'earlier' }).at(earlier).build(),
        undefined,
        ANY_WRITER,
      );

      expect(updated).toMatchObject({ title: 'earlier', updatedAt: later });
      await expect(repository.findById(created.id)).resolves.toMatchObject({ title: 'earlier', updatedAt: later });
    });

    it('ends on one of the written states when updates of one article race', async () => {
      const created = await repository.create(aNewArticle().build());
      const titles = Array.from({ length: 10 }, (_, index) => `title ${index}`);
      const results = await Promise.all(
        titles.map((title, index) =>
          repository.update(
            created.id,
            someChanges()
              .with({ title })
              .replacingTags(`tag ${index}`)
              .at(new Date(created.createdAt.getTime() + index + 1))
              .build(),
            undefined,
            ANY_WRITER,
          ),
        ),
      );
      expect(results.every((result) => result !== null)).toBe(true);
      const final = await repository.findById(created.id);
      const index = titles.indexOf(final?.title ?? '');
      expect(index).toBeGreaterThanOrEqual(0);
      // Title and links come from the same write: no mix of two updates.
      expect(termNames(final)).toEqual([`tag ${index}`]);
    });
  });
}
