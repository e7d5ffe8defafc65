import { CreateArticle, GetArticle, ListVisibleArticles } from '../../../src/application';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

describe('reading articles', () => {
  let repository: InMemoryArticleRepository;
  let listArticles: ListVisibleArticles;
  let getArticle: GetArticle;

  beforeEach(async () => {
    repository = new InMemoryArticleRepository();
    listArticles = new ListVisibleArticles(repository);
    getArticle = new GetArticle(repository);
    const createArticle = new CreateArticle(repository, new TestClock());
    for (const [title, visible] of [
      ['one', true],
      ['hidden', false],
      ['three', true],
    ] as const) {
      await createArticle.execute(aCreateInput({ title, visible }));
    }
  });

  describe('ListVisibleArticles', () => {
    it('lists only visible articles, by id ascending, by default', async () => {
      const articles = await listArticles.execute();

      expect(articles.map((article) => [article.id, article.title])).toEqual([
        [1, 'one'],
        [3, 'three'],
      ]);
    });

    it('answers an empty list on an empty store', async () => {
      await expect(new ListVisibleArticles(new InMemoryArticleRepository()).execute()).resolves.toEqual([]);
    });
  });

  describe('GetArticle', () => {
    it('reads an article whatever its visibility', async () => {
      await expect(getArticle.execute({ id: 2 })).resolves.toMatchObject({ id: 2, title: 'hidden', visible: false });
    });

    it('answers null for an id that does not exist', async () => {
      await expect(getArticle.execute({ id: 4 })).resolves.toBeNull();
    });
  });
});
