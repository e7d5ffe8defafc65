import type { ArticleRepository } from '../../../src/application';
import type { Article } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

const at = (seconds: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, seconds));
const EVERY: (article: Article, replacedAt: Date) => boolean = () => true;

/** latestReplacement: the newest revision, of any article, that a test accepts, within a time range. */
export function latestReplacementContract(open: OpenContractSubject): void {
  describe('the latest replaced state a test accepts (latestReplacement)', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('answers the newest accepted replacement after `after` and at or before `upTo`, deleted articles included', async () => {
      const first = await repository.create(aNewArticle().with({ title: 'first' }).withTags('a').build());
      const second = await repository.create(aNewArticle().with({ title: 'second' }).build());
      await repository.update(
        first.id,
        someChanges().with({ title: 'first, 2' }).at(at(10)).build(),
        undefined,
        ANY_WRITER,
      );
      await repository.update(
        second.id,
        someChanges().with({ title: 'second, 2' }).at(at(20)).build(),
        undefined,
        ANY_WRITER,
      );
      await repository.delete(first.id, at(30), undefined, ANY_WRITER);

      await expect(repository.latestReplacement(at(0), at(60), EVERY)).resolves.toEqual(at(30));
      await expect(repository.latestReplacement(at(0), at(29), EVERY)).resolves.toEqual(at(20));
      await expect(repository.latestReplacement(at(0), at(20), EVERY)).resolves.toEqual(at(20));
      await expect(repository.latestReplacement(at(20), at(29), EVERY)).resolves.toBeNull();
      await expect(repository.latestReplacement(at(30), at(60), EVERY)).resolves.toBeNull();

      const seen: Array<[string | null, string[], Date]> = [];
      const titled = (title: string) => (article: Article, replacedAt: Date) => {
        seen.push([article.title, article.tags.map((tag) => tag.name), replacedAt]);
        return article.title === title;
      };
      // The deleted article as it was, with its tags.
      await expect(repository.latestReplacement(at(0), at(60), titled('first'))).resolves.toEqual(at(10));
      expect(seen).toEqual([
        ['first, 2', ['a'], at(30)],
        ['second', [], at(20)],
        ['first', ['a'], at(10)],
      ]);
      await expect(repository.latestReplacement(at(0), at(60), titled('nothing like it'))).resolves.toBeNull();
    });

    it('walks back through more revisions than one statement reads', async () => {
      const article = await repository.create(aNewArticle().with({ title: 'v0' }).build());
      for (let version = 1; version <= 260; version++) {
        const changes = someChanges()
          .with({ title: `v${version}` })
          .at(new Date(at(0).getTime() + version * 1_000));
        await repository.update(article.id, changes.build(), undefined, ANY_WRITER);
      }
      const oldest = (was: Article) => was.title === 'v0';
      await expect(repository.latestReplacement(at(0), at(100_000), oldest)).resolves.toEqual(at(1));
      // Revisions replaced at one instant are all read, however the pages fall.
      await expect(repository.latestReplacement(new Date(0), at(1), oldest)).resolves.toEqual(at(1));
    });
  });
}
