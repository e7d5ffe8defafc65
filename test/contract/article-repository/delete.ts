import type { ArticleRepository } from '../../../src/application';
import { ANY_WRITER, aNewArticle, READ_MOMENT } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** Deleting an article: its links go, its terms stay. */
export function deleteContract(open: OpenContractSubject): void {
  describe('delete', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('removes the article and its links, keeps its terms, and answers it as it was', async () => {
      const kept = await repository.create(aNewArticle().withTags('t').withCategories('c').build());
      const doomed = await repository.create(aNewArticle().withTags('t', 'u').withCategories('c').build());

      await expect(repository.delete(doomed.id, new Date(), undefined, ANY_WRITER)).resolves.toEqual(doomed);
      await expect(repository.findById(doomed.id)).resolves.toBeNull();
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10, tagName: 'u' })).resolves.toEqual([]);
      await expect(repository.listVisible({ moment: READ_MOMENT, limit: 10 })).resolves.toEqual([kept]);
      await expect(repository.listTerms('tag').then((tags) => tags.map((tag) => tag.name))).resolves.toEqual([
        't',
        'u',
      ]);
      await expect(repository.listTerms('category')).resolves.toHaveLength(1);
    });

    it('answers null for an unknown id', async () => {
      await expect(repository.delete(424242, new Date(), undefined, ANY_WRITER)).resolves.toBeNull();
    });
  });
}
