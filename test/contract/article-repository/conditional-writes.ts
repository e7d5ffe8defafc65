import type { ArticleRepository } from '../../../src/application';
import { type Article, ArticleChangedError } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** Article versions, and updates and deletes made only at an expected version. */
export function conditionalWritesContract(open: OpenContractSubject): void {
  describe('versions and conditional writes', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('counts the version up with each update', async () => {
      const created = await repository.create(aNewArticle().build());
      expect(created.version).toBe(1);
      await repository.update(created.id, someChanges().with({ title: 'one' }).build(), undefined, ANY_WRITER);
      const updated = await repository.update(
        created.id,
        someChanges().replacingTags('t').build(),
        undefined,
        ANY_WRITER,
      );
      expect(updated?.version).toBe(3);
      await expect(repository.findById(created.id)).resolves.toMatchObject({ version: 3 });
    });

    it('applies an update only at an expected version, else writes nothing', async () => {
      const created = await repository.create(aNewArticle().withTags('before').build());
      const stale = repository.update(
        created.id,
        someChanges().with({ title: 'stale' }).replacingTags('after').build(),
        { versions: [7, 8] },
        ANY_WRITER,
      );
      await expect(stale).rejects.toEqual(new ArticleChangedError(created.id));
      await expect(
        repository.update(created.id, someChanges().with({ title: 'x' }).build(), { versions: [] }, ANY_WRITER),
      ).rejects.toBeInstanceOf(ArticleChangedError);
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      await expect(repository.listTerms('tag')).resolves.toEqual(created.tags);

      const fresh = await repository.update(
        created.id,
        someChanges().with({ title: 'fresh' }).build(),
        {
          versions: [5, 1],
        },
        ANY_WRITER,
      );
      expect(fresh).toMatchObject({ title: 'fresh', version: 2 });
    });

    it('answers null, not a conflict, for a conditional update of an unknown id', async () => {
      await expect(repository.update(424242, someChanges().build(), { versions: [1] }, ANY_WRITER)).resolves.toBeNull();
      await expect(repository.delete(424242, new Date(), { versions: [1] }, ANY_WRITER)).resolves.toBeNull();
    });

    it('deletes only at an expected version', async () => {
      const created = await repository.create(aNewArticle().build());
      await expect(repository.delete(created.id, new Date(), { versions: [2] }, ANY_WRITER)).rejects.toEqual(
        new ArticleChangedError(created.id),
      );
      await expect(repository.findById(created.id)).resolves.toEqual(created);
      await expect(repository.delete(created.id, new Date(), { versions: [1] }, ANY_WRITER)).resolves.toEqual(created);
    });

    it('lets exactly one of several concurrent writes at the same version succeed', async () => {
      const created = await repository.create(aNewArticle().build());
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, index) =>
          repository.update(
            created.id,
            someChanges()
              .with({ title: `editor ${index}` })
              .replacingTags(`t${index}`)
              .build(),
            { versions: [created.version] },
            ANY_WRITER,
          ),
        ),
      );
      const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter(
        (outcome) => outcome.status === 'rejected' && outcome.reason instanceof ArticleChangedError,
      );
      expect(succeeded).toHaveLength(1);
      expect(refused).toHaveLength(19);
      const final = await repository.findById(created.id);
      expect(final).toEqual((succeeded[0] as PromiseFulfilledResult<Article>).value);
      expect(final?.version).toBe(2);
    });
  });
}
