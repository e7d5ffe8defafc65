import type { ArticleRepository } from '../../../src/application';
import {
  type Article,
  ArticleChangedError,
  RevisionNotFoundError,
  SlugTakenError,
  UnknownReferenceError,
} from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

const at = (minutes: number) => new Date(Date.UTC(2026, 3, 1, 12, minutes));

/**
 * Revisions: every update, delete and restore keeps the article as it was, in the same atomic
 * write; restores bring back any revision, a deleted article's included; the retention's purge.
 */
export function revisionsContract(open: OpenContractSubject): void {
  describe('revisions', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    const revisionsOf = async (id: number, page = {}) =>
      ((await repository.listRevisions(id, page)) ?? []).map(({ revision, replacedAt, article }) => ({
        revision,
        replacedAt,
        title: article.title,
        version: article.version,
      }));
    const ids = (articles: readonly Article[]) => articles.map((article) => article.id);

    it('keeps the article as it was before each update and its delete, numbered from 1, newest first', async () => {
      const created = await repository.create(aNewArticle().with({ title: 'v1' }).withTags('a').build());
      await expect(repository.listRevisions(created.id, {})).resolves.toEqual([]);
      const second = await repository.update(
        created.id,
        someChanges().with({ title: 'v2' }).at(at(1)).build(),
        undefined,
        ANY_WRITER,
      );
      await repository.update(
        created.id,
        someChanges().with({ title: 'v3' }).replacingTags('b').at(at(2)).build(),
        undefined,
        ANY_WRITER,
      );
      await repository.delete(created.id, at(3), undefined, ANY_WRITER);

      const revisions = await repository.listRevisions(created.id, {});
      expect(revisions?.map((kept) => kept.revision)).toEqual([3, 2, 1]);
      expect(revisions?.[2]).toEqual({ revision: 1, replacedAt: at(1), article: created });
      expect(revisions?.[1]).toEqual({ revision: 2, replacedAt: at(2), article: second });
      expect(revisions?.[0]?.article).toMatchObject({ title: 'v3', version: 3, tags: [{ name: 'b' }] });
      await expect(revisionsOf(created.id, { limit: 2 })).resolves.toMatchObject([{ revision: 3 }, { revision: 2 }]);
      await expect(revisionsOf(created.id, { limit: 2, before: 2 })).resolves.toMatchObject([{ revision: 1 }]);
      await expect(revisionsOf(created.id, { before: 1 })).resolves.toEqual([]);
      await expect(repository.listRevisions(424242, {})).resolves.toBeNull();
    });

    it('keeps no revision of a write that failed: an unknown reference, a version that changed', async () => {
      const created = await repository.create(aNewArticle().build());
      await expect(
        repository.update(
          created.id,
          someChanges().with({ title: 'x' }).replacingTags({ id: 'nope' }).build(),
          undefined,
          ANY_WRITER,
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        repository.update(created.id, someChanges().with({ title: 'x' }).build(), { versions: [7] }, ANY_WRITER),
      ).rejects.toBeInstanceOf(ArticleChangedError);
      await expect(repository.delete(created.id, at(1), { versions: [7] }, ANY_WRITER)).rejects.toBeInstanceOf(
        ArticleChangedError,
      );
      await expect(repository.listRevisions(created.id, {})).resolves.toEqual([]);
      await expect(repository.findById(created.id)).resolves.toEqual(created);
    });

    it('restores fields, publication, slug and links, keeps createdAt, and keeps what it replaced', async () => {
      const created = await repository.create(
        aNewArticle()
          .with({ title: 'First', featured: true })
          .publishedOn(at(0))
          .withTags('a')
          .withCategories('c')
          .build(),
      );
      await repository.update(
        created.id,
        someChanges()
          .with({ title: 'Second', content: 'other', featured: false })
          .publishingOn(null)
          .withSlug('second')
          .replacingTags('b')
          .replacingCategories()
          .at(at(5))
          .build(),
        undefined,
        ANY_WRITER,
      );
      const restored = await repository.restore(created.id, 1, at(9));
      expect(restored).toEqual({ ...created, updatedAt: at(9), version: 3 });
      await expect(repository.findById(created.id)).resolves.toEqual(restored);
      await expect(revisionsOf(created.id)).resolves.toMatchObject([
        { revision: 2, replacedAt: at(9), title: 'Second', version: 2 },
        { revision: 1, replacedAt: at(5), title: 'First', version: 1 },
      ]);
      // The slug it left leads to it; the content it restored is searchable again.
      await expect(repository.findBySlug('second')).resolves.toEqual({
        found: 'earlier',
        id: created.id,
        slug: created.slug,
      });
      await expect(
        repository.listVisible({ moment: READ_MOMENT, limit: 10, foldedQuery: 'some content' }).then(ids),
      ).resolves.toEqual([created.id]);
    });

    it('brings a deleted article back with its id and the version after its last, keeping no revision of its absence', async () => {
      const before = await repository.create(aNewArticle().build());
      const doomed = await repository.create(aNewArticle().with({ title: 'Doomed' }).withTags('t').build());
      const after = await repository.create(aNewArticle().build());
      await repository.update(
        doomed.id,
        someChanges().with({ title: 'Edited' }).at(at(1)).build(),
        undefined,
        ANY_WRITER,
      );
      await repository.delete(doomed.id, at(2), undefined, ANY_WRITER);

      const back = await repository.restore(doomed.id, 1, at(3));
      expect(back).toEqual({ ...doomed, updatedAt: at(3), version: 3 });
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10 }).then(ids)).resolves.toEqual([
        before.id,
        doomed.id,
        after.id,
      ]);
      await expect(revisionsOf(doomed.id)).resolves.toMatchObject([{ revision: 2 }, { revision: 1 }]);
      await expect(repository.findBySlug(doomed.slug)).resolves.toEqual({ found: 'current', article: back });
    });

    it('refuses, writing nothing: an unknown revision, a slug another article took, a version that changed', async () => {
      const created = await repository.create(aNewArticle().with({ title: 'Mine' }).build());
      await expect(repository.restore(created.id, 1, at(1))).rejects.toEqual(new RevisionNotFoundError(created.id, 1));
      await expect(repository.restore(424242, 1, at(1))).rejects.toBeInstanceOf(RevisionNotFoundError);

      await repository.update(created.id, someChanges().withSlug('renamed').at(at(1)).build(), undefined, ANY_WRITER);
      const taker = await repository.create(aNewArticle().withSlug('mine').build());
      await expect(repository.restore(created.id, 1, at(2))).rejects.toEqual(new SlugTakenError('mine'));
      await expect(repository.restore(created.id, 1, at(2), { versions: [1] })).rejects.toBeInstanceOf(
        ArticleChangedError,
      );
      await expect(repository.findById(created.id)).resolves.toMatchObject({ slug: 'renamed', version: 2 });
      await expect(repository.listRevisions(created.id, {}).then((kept) => kept?.length)).resolves.toBe(1);

      await repository.delete(taker.id, at(3), undefined, ANY_WRITER);
      await expect(repository.restore(created.id, 1, at(4), { versions: [2] })).resolves.toMatchObject({
        slug: 'mine',
        version: 3,
      });
      // `*` (anyVersion) lets a write to an existing article through, whatever its version.
      await expect(
        repository.update(
          created.id,
          someChanges().with({ title: 'any' }).build(),
          { versions: [], anyVersion: true },
          ANY_WRITER,
        ),
      ).resolves.toMatchObject({ version: 4 });
      // A deleted article is at no version: a condition on one fails.
      await repository.delete(created.id, at(5), undefined, ANY_WRITER);
      await expect(repository.restore(created.id, 1, at(6), { versions: [3] })).rejects.toBeInstanceOf(
        ArticleChangedError,
      );
      await expect(repository.restore(created.id, 1, at(6), { versions: [], anyVersion: true })).rejects.toBeInstanceOf(
        ArticleChangedError,
      );
    });

    it('purges revisions replaced at or before a moment, at most a batch at a time', async () => {
      const created = await repository.create(aNewArticle().build());
      for (let minute = 1; minute <= 5; minute++) {
        await repository.update(
          created.id,
          someChanges()
            .with({ title: `t${minute}` })
            .at(at(minute))
            .build(),
          undefined,
          ANY_WRITER,
        );
      }
      await expect(repository.deleteExpiredRevisions(at(3), 2)).resolves.toBe(2);
      await expect(repository.deleteExpiredRevisions(at(3), 2)).resolves.toBe(1);
      await expect(repository.deleteExpiredRevisions(at(3), 2)).resolves.toBe(0);
      await expect(revisionsOf(created.id)).resolves.toMatchObject([{ revision: 5 }, { revision: 4 }]);
    });
  });
}
