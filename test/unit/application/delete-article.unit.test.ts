import { CreateArticle, DeleteArticle, ListTags, ListVisibleArticles, UpdateArticle } from '../../../src/application';
import { type Article, ArticleChangedError, ArticleNotFoundError, OPEN_ACTOR } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

describe('DeleteArticle', () => {
  let repository: InMemoryArticleRepository;
  let deleteArticle: DeleteArticle;
  let existing: Article;
  let other: Article;

  beforeEach(async () => {
    repository = new InMemoryArticleRepository();
    deleteArticle = new DeleteArticle(repository, new TestClock());
    const createArticle = new CreateArticle(repository, new TestClock());
    existing = await createArticle.execute(
      aCreateInput({ tag: [{ name: 'ts' }], category: [{ name: 'dev' }] }),
      OPEN_ACTOR,
    );
    other = await createArticle.execute(aCreateInput({ tag: [{ name: 'ts' }] }), OPEN_ACTOR);
  });

  it('deletes the article, answers it as it was, and leaves its tags and categories', async () => {
    await expect(deleteArticle.execute({ id: existing.id }, OPEN_ACTOR)).resolves.toEqual(existing);

    await expect(repository.findById(existing.id)).resolves.toBeNull();
    await expect(new ListVisibleArticles(repository, new TestClock()).execute()).resolves.toEqual([other]);
    expect((await new ListTags(repository).execute()).map((tag) => tag.name)).toEqual(['ts']);
    expect((await repository.listTerms('category')).map((category) => category.name)).toEqual(['dev']);
  });

  it('rejects a missing id with ArticleNotFoundError and changes nothing', async () => {
    const attempt = deleteArticle.execute({ id: 999 }, OPEN_ACTOR);

    await expect(attempt).rejects.toThrow(ArticleNotFoundError);
    await expect(attempt).rejects.toMatchObject({ message: 'article 999 does not exist' });
    await expect(new ListVisibleArticles(repository, new TestClock()).execute()).resolves.toEqual([existing, other]);
  });

  it('a second delete of the same id is a not-found', async () => {
    await deleteArticle.execute({ id: existing.id }, OPEN_ACTOR);
    await expect(deleteArticle.execute({ id: existing.id }, OPEN_ACTOR)).rejects.toThrow(ArticleNotFoundError);
  });

  it('with expected versions, deletes only an article at one of them', async () => {
    await new UpdateArticle(repository, new TestClock()).execute({ id: existing.id, title: 'changed' }, OPEN_ACTOR);

    await expect(deleteArticle.execute({ id: existing.id, expected: { versions: [1] } }, OPEN_ACTOR)).rejects.toThrow(
      ArticleChangedError,
    );
    await expect(repository.findById(existing.id)).resolves.toMatchObject({ title: 'changed', version: 2 });

    await expect(
      deleteArticle.execute({ id: existing.id, expected: { versions: [1, 2] } }, OPEN_ACTOR),
    ).resolves.toMatchObject({
      id: existing.id,
      version: 2,
    });
    await expect(repository.findById(existing.id)).resolves.toBeNull();
  });
});
