import { CreateArticle, ListCategories, ListTags, UpdateArticle } from '../../../src/application';
import { OPEN_ACTOR } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

describe('ListTags and ListCategories', () => {
  let repository: InMemoryArticleRepository;
  let createArticle: CreateArticle;

  beforeEach(() => {
    repository = new InMemoryArticleRepository();
    createArticle = new CreateArticle(repository, new TestClock());
  });

  it('answers empty lists on an empty store', async () => {
    await expect(new ListTags(repository).execute()).resolves.toEqual([]);
    await expect(new ListCategories(repository).execute()).resolves.toEqual([]);
  });

  it('lists every tag ordered by name in code-point order', async () => {
    await createArticle.execute(aCreateInput({ tag: [{ name: '😀' }, { name: 'ｚ' }, { name: 'a' }] }), OPEN_ACTOR);
    await createArticle.execute(
      aCreateInput({ tag: [{ name: 'é' }, { name: 'B', description: 'bee' }, { name: 'a' }] }),
      OPEN_ACTOR,
    );

    const tags = await new ListTags(repository).execute();

    expect(tags.map((tag) => tag.name)).toEqual(['B', 'a', 'é', 'ｚ', '😀']);
    expect(tags[0]).toEqual({ id: expect.any(String), name: 'B', description: 'bee' });
  });

  it('keeps tags and categories apart', async () => {
    await createArticle.execute(
      aCreateInput({ tag: [{ name: 'only-tag' }], category: [{ name: 'only-category' }] }),
      OPEN_ACTOR,
    );

    await expect(new ListTags(repository).execute()).resolves.toMatchObject([{ name: 'only-tag' }]);
    await expect(new ListCategories(repository).execute()).resolves.toMatchObject([{ name: 'only-category' }]);
  });

  it('keeps a category that no article links any more', async () => {
    const article = await createArticle.execute(aCreateInput({ category: [{ name: 'orphan' }] }), OPEN_ACTOR);
    await new UpdateArticle(repository, new TestClock()).execute({ id: article.id, category: [] }, OPEN_ACTOR);

    await expect(new ListCategories(repository).execute()).resolves.toMatchObject([{ name: 'orphan' }]);
  });
});
