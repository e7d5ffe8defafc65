import {
  CreateArticle,
  GetArticle,
  LATER_BATCH_RETRIES,
  LIST_BATCH_SIZE,
  ListVisibleArticles,
} from '../../../src/application';
import { type Article, StorageUnavailableError } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

/** Counts the pages a use case reads, on the real in-memory store. */
class CountingRepository extends InMemoryArticleRepository {
  pagesRead = 0;
  /** Page reads (1-based) that fail as an unreachable storage would. */
  failingReads = new Set<number>();
  override async listVisible(...args: Parameters<InMemoryArticleRepository['listVisible']>): Promise<Article[]> {
    this.pagesRead++;
    if (this.failingReads.has(this.pagesRead)) throw new StorageUnavailableError();
    return super.listVisible(...args);
  }
}

const titles = (articles: readonly Article[]) => articles.map((article) => article.title);

describe('reading articles', () => {
  let repository: CountingRepository;
  let createArticle: CreateArticle;
  let listArticles: ListVisibleArticles;
  let getArticle: GetArticle;

  beforeEach(async () => {
    repository = new CountingRepository();
    listArticles = new ListVisibleArticles(repository);
    getArticle = new GetArticle(repository);
    createArticle = new CreateArticle(repository, new TestClock());
    for (const [title, visible, tag, category] of [
      ['one', true, 'ts', 'dev'],
      ['hidden', false, 'ts', 'dev'],
      ['three', true, 'ts', 'news'],
      ['four', true, 'js', 'dev'],
    ] as const) {
      await createArticle.execute(
        aCreateInput({ title, visible, tag: [{ name: tag }], category: [{ name: category }] }),
      );
    }
  });

  describe('ListVisibleArticles', () => {
    it('lists only visible articles, by id ascending', async () => {
      const articles = await listArticles.execute();

      expect(articles.map((article) => [article.id, article.title])).toEqual([
        [1, 'one'],
        [3, 'three'],
        [4, 'four'],
      ]);
    });

    it('answers an empty list on an empty store', async () => {
      await expect(new ListVisibleArticles(new InMemoryArticleRepository()).execute()).resolves.toEqual([]);
    });

    it('answers a page: at most limit articles after the given id', async () => {
      expect(titles(await listArticles.page({ limit: 1 }))).toEqual(['one']);
      expect(titles(await listArticles.page({ limit: 2, after: 1 }))).toEqual(['three', 'four']);
      expect(titles(await listArticles.page({ limit: 5, after: 4 }))).toEqual([]);
    });

    it('filters by tag, by category, and by both', async () => {
      expect(titles(await listArticles.execute({ tag: 'ts' }))).toEqual(['one', 'three']);
      expect(titles(await listArticles.execute({ category: 'dev' }))).toEqual(['one', 'four']);
      expect(titles(await listArticles.execute({ tag: 'ts', category: 'dev' }))).toEqual(['one']);
      expect(titles(await listArticles.page({ limit: 1, after: 1, tag: 'ts' }))).toEqual(['three']);
      expect(await listArticles.execute({ tag: 'nobody' })).toEqual([]);
    });

    it('searches with q folded by toLowerCase, in pages and in the whole list, with the filters', async () => {
      expect(titles(await listArticles.execute({ q: 'THREE' }))).toEqual(['three']);
      // Every article's content is "World": "o" matches them all, "on" only "one".
      expect(titles(await listArticles.execute({ q: 'O' }))).toEqual(['one', 'three', 'four']);
      expect(titles(await listArticles.execute({ q: 'ON' }))).toEqual(['one']);
      expect(titles(await listArticles.page({ limit: 1, after: 1, q: 'o' }))).toEqual(['three']);
      expect(titles(await listArticles.execute({ q: 'WORLD', tag: 'ts' }))).toEqual(['one', 'three']);
      // The invisible "hidden" never matches.
      expect(await listArticles.execute({ q: 'hidden' })).toEqual([]);
    });

    it(`reads the whole list in batches of ${LIST_BATCH_SIZE}, each article once, in id order`, async () => {
      for (let n = 0; n < LIST_BATCH_SIZE * 2; n++) await createArticle.execute(aCreateInput({ title: `n${n}` }));
      repository.pagesRead = 0;

      const batches: Article[][] = [];
      for await (const batch of listArticles.batches()) batches.push(batch);

      expect(batches.map((batch) => batch.length)).toEqual([LIST_BATCH_SIZE, LIST_BATCH_SIZE, 3]);
      const ids = batches.flat().map((article) => article.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      expect(repository.pagesRead).toBe(3);
    });

    it('reads a later batch again when the storage fails, and gives up after the retries', async () => {
      for (let n = 0; n < LIST_BATCH_SIZE * 2; n++) await createArticle.execute(aCreateInput({ title: `n${n}` }));
      const everything = await listArticles.execute();
      repository.pagesRead = 0;
      // The second batch fails twice, then is read: the list is whole, each article once.
      repository.failingReads = new Set([2, 3]);
      await expect(listArticles.execute()).resolves.toEqual(everything);

      repository.pagesRead = 0;
      repository.failingReads = new Set(Array.from({ length: LATER_BATCH_RETRIES + 1 }, (_, i) => i + 2));
      await expect(listArticles.execute()).rejects.toBeInstanceOf(StorageUnavailableError);
    });

    it('does not retry the first batch: the client can still be answered 503', async () => {
      repository.pagesRead = 0;
      repository.failingReads = new Set([1]);
      await expect(listArticles.batches().next()).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(repository.pagesRead).toBe(1);
    });

    it('reads no further batch once the caller stops', async () => {
      for (let n = 0; n < LIST_BATCH_SIZE * 2; n++) await createArticle.execute(aCreateInput({ title: `n${n}` }));
      repository.pagesRead = 0;

      const batches = listArticles.batches();
      await batches.next();
      await batches.return(undefined);

      expect(repository.pagesRead).toBe(1);
      await expect(batches.next()).resolves.toEqual({ done: true, value: undefined });
    });
  });

  describe('GetArticle', () => {
    it('reads an article whatever its visibility', async () => {
      await expect(getArticle.execute({ id: 2 })).resolves.toMatchObject({ id: 2, title: 'hidden', visible: false });
    });

    it('answers null for an id that does not exist', async () => {
      await expect(getArticle.execute({ id: 5 })).resolves.toBeNull();
    });
  });
});
