import { CreateArticle, ListVisibleArticles, SeedArticles } from '../../../src/application';
import type { Article } from '../../../src/domain';
import { OPEN_ACTOR } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { TestClock } from '../../support/test-clock';

/** Every article of the batches the seed answers. */
async function all(batches: AsyncGenerator<Article[]>): Promise<Article[]> {
  const articles: Article[] = [];
  for await (const batch of batches) articles.push(...batch);
  return articles;
}

describe('SeedArticles', () => {
  let repository: InMemoryArticleRepository;
  let clock: TestClock;
  let createArticle: CreateArticle;
  let seedArticles: SeedArticles;

  beforeEach(() => {
    repository = new InMemoryArticleRepository();
    clock = new TestClock('2026-07-01T12:00:00.000Z');
    createArticle = new CreateArticle(repository, clock);
    seedArticles = new SeedArticles(createArticle, new ListVisibleArticles(repository, clock));
  });

  it('creates Article 1..3 with Content 1..3, in that order, with the defaults', async () => {
    const answer = await all(await seedArticles.execute(OPEN_ACTOR));

    expect(answer.map(({ id, title, content }) => ({ id, title, content }))).toEqual([
      { id: 1, title: 'Article 1', content: 'Content 1' },
      { id: 2, title: 'Article 2', content: 'Content 2' },
      { id: 3, title: 'Article 3', content: 'Content 3' },
    ]);
    for (const article of answer) {
      expect(article).toMatchObject({
        description: '这篇文章还没有介绍...',
        publishedAt: clock.now(),
        tags: [],
        categories: [],
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
    }
  });

  it('answers exactly the visible list', async () => {
    await createArticle.execute({ content: 'hidden', visible: false }, OPEN_ACTOR);

    const answer = await all(await seedArticles.execute(OPEN_ACTOR));

    expect(answer).toEqual(await new ListVisibleArticles(repository, clock).execute());
    expect(answer.map((article) => article.title)).toEqual(['Article 1', 'Article 2', 'Article 3']);
  });

  it('adds three more articles on each call', async () => {
    await seedArticles.execute(OPEN_ACTOR);
    const answer = await all(await seedArticles.execute(OPEN_ACTOR));

    expect(answer).toHaveLength(6);
    expect(answer.map((article) => article.title)).toEqual([
      'Article 1',
      'Article 2',
      'Article 3',
      'Article 1',
      'Article 2',
      'Article 3',
    ]);
    expect(answer.map((article) => article.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
