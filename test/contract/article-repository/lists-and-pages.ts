import type { ArticleRepository } from '../../../src/application';
import type { Article } from '../../../src/domain';
import { aNewArticle, READ_MOMENT } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** The visible list: which articles it holds, and its pages by `afterId` and `limit`, filtered by tag and category. */
export function listsAndPagesContract(open: OpenContractSubject): void {
  describe('visibility', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('lists only visible articles, with their links', async () => {
      const shown = await repository.create(aNewArticle().withTags('t').build());
      const hidden = await repository.create(aNewArticle().invisible().withTags('t').build());

      const visible = await repository.listVisible({ moment: READ_MOMENT, limit: 100 });
      expect(visible.map((article) => article.id)).toEqual([shown.id]);
      expect(visible).toEqual([shown]);
      await expect(repository.findById(hidden.id)).resolves.toEqual(hidden);
    });

    it('reads an invisible article by id', async () => {
      const hidden = await repository.create(aNewArticle().invisible().build());
      await expect(repository.findById(hidden.id)).resolves.toMatchObject({ id: hidden.id, publishedAt: null });
    });

    it('answers an empty list when there is nothing', async () => {
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 100 })).resolves.toEqual([]);
    });
  });

  describe('pages and filters', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    const ids = (articles: readonly Article[]) => articles.map((article) => article.id);

    it('answers the first `limit` visible articles after `afterId`, by id', async () => {
      const created = [];
      for (let n = 0; n < 7; n++)
        created.push(
          await repository.create(
            aNewArticle()
              .with({ title: `a${n}` })
              .build(),
          ),
        );
      await repository.create(aNewArticle().invisible().build());
      const [a0, a1, a2, a3, a4, a5, a6] = created.map((article) => article.id) as number[];

      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 3 }).then(ids)).resolves.toEqual([a0, a1, a2]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 3, afterId: a2 }).then(ids)).resolves.toEqual([
        a3,
        a4,
        a5,
      ]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 3, afterId: a5 }).then(ids)).resolves.toEqual([
        a6,
      ]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 3, afterId: a6 })).resolves.toEqual([]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 1, afterId: 2_147_483_647 })).resolves.toEqual(
        [],
      );
    });

    it('keeps only articles linked to the named tag, the named category, or both', async () => {
      const both = await repository.create(aNewArticle().withTags('ts', 'x').withCategories('dev').build());
      const tagOnly = await repository.create(aNewArticle().withTags('ts').withCategories('ops').build());
      const categoryOnly = await repository.create(aNewArticle().withTags('go').withCategories('dev').build());
      await repository.create(aNewArticle().invisible().withTags('ts').withCategories('dev').build());
      await repository.create(aNewArticle().build());

      const tagged = await repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'ts' });
      expect(ids(tagged)).toEqual([both.id, tagOnly.id]);
      // A filtered article still carries all of its links.
      expect(tagged[0]).toEqual(both);
      await expect(
        repository.listVisible({ moment: READ_MOMENT, limit: 10, categoryName: 'dev' }).then(ids),
      ).resolves.toEqual([both.id, categoryOnly.id]);
      await expect(
        repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'ts', categoryName: 'dev' }).then(ids),
      ).resolves.toEqual([both.id]);
      await expect(
        repository.listVisible({ moment: READ_MOMENT, limit: 1, afterId: both.id, tagName: 'ts' }).then(ids),
      ).resolves.toEqual([tagOnly.id]);
    });

    it('matches names exactly, and an unknown name matches nothing', async () => {
      await repository.create(aNewArticle().withTags('TS').withCategories('Dev').build());
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'ts' })).resolves.toEqual([]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'nope' })).resolves.toEqual([]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, categoryName: 'dev' })).resolves.toEqual(
        [],
      );
      // A tag's name is not a category's.
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, categoryName: 'TS' })).resolves.toEqual([]);
    });
  });
}
