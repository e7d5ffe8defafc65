import {
  CreateArticle,
  GetArticle,
  LATER_BATCH_RETRIES,
  LATER_BATCH_SLOW_FAILURE_MS,
  type ListVersion,
  ListVisibleArticles,
  STREAM_CHUNK_SIZE,
} from '../../../src/application';
import { type Article, OPEN_ACTOR, StorageUnavailableError } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

/** Counts the streams and chunks a use case reads, on the real in-memory store. */
class CountingRepository extends InMemoryArticleRepository {
  streamsOpened = 0;
  chunksRead = 0;
  streamsClosed = 0;
  /** Per stream (1-based): fail as an unreachable storage would after this many chunks. */
  failures = new Map<number, number>();
  /** When set, each failure first moves this clock on so much: a storage silent that long, then giving up. */
  failureTakes: { clock: TestClock; ms: number } | null = null;
  override async *streamVisible(
    ...args: Parameters<InMemoryArticleRepository['streamVisible']>
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    const stream = ++this.streamsOpened;
    const inner = super.streamVisible(...args);
    let chunks = 0;
    const fail = () => {
      this.failureTakes?.clock.advance(this.failureTakes.ms);
      return new StorageUnavailableError();
    };
    try {
      if (this.failures.get(stream) === 0) throw fail();
      for (;;) {
        const next = await inner.next();
        if (next.done) return next.value;
        this.chunksRead++;
        yield next.value;
        if (this.failures.get(stream) === ++chunks) throw fail();
      }
    } finally {
      await inner.return(undefined);
      this.streamsClosed++;
    }
  }
}

const titles = (articles: readonly Article[]) => articles.map((article) => article.title);

describe('reading articles', () => {
  let repository: CountingRepository;
  let createArticle: CreateArticle;
  let listArticles: ListVisibleArticles;
  let listClock: TestClock;
  let getArticle: GetArticle;

  beforeEach(async () => {
    repository = new CountingRepository();
    listClock = new TestClock();
    listArticles = new ListVisibleArticles(repository, listClock);
    getArticle = new GetArticle(repository, new TestClock());
    createArticle = new CreateArticle(repository, new TestClock());
    for (const [title, visible, tag, category] of [
      ['one', true, 'ts', 'dev'],
      ['hidden', false, 'ts', 'dev'],
      ['three', true, 'ts', 'news'],
      ['four', true, 'js', 'dev'],
    ] as const) {
      await createArticle.execute(
        aCreateInput({ title, visible, tag: [{ name: tag }], category: [{ name: category }] }),
        OPEN_ACTOR,
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
      await expect(
        new ListVisibleArticles(new InMemoryArticleRepository(), new TestClock()).execute(),
      ).resolves.toEqual([]);
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

    it(`reads the whole list as one stream in chunks of ${STREAM_CHUNK_SIZE}, each article once, in id order`, async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE * 2; n++)
        await createArticle.execute(aCreateInput({ title: `n${n}` }), OPEN_ACTOR);

      const batches: Article[][] = [];
      for await (const batch of listArticles.batches()) batches.push(batch);

      expect(batches.map((batch) => batch.length)).toEqual([STREAM_CHUNK_SIZE, STREAM_CHUNK_SIZE, 3]);
      const ids = batches.flat().map((article) => article.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      expect([repository.streamsOpened, repository.streamsClosed]).toEqual([1, 1]);
    });

    it('goes on after the last article sent when the storage fails mid-list, and gives up after the retries', async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE * 2; n++)
        await createArticle.execute(aCreateInput({ title: `n${n}` }), OPEN_ACTOR);
      const everything = await listArticles.execute();
      repository.streamsOpened = 0;
      // The first stream fails after one chunk, the next one before any: the third finishes the list.
      repository.failures = new Map([
        [1, 1],
        [2, 0],
      ]);
      await expect(listArticles.execute()).resolves.toEqual(everything);
      expect(repository.streamsOpened).toBe(3);
      // A wait before each new stream: the second failed before any chunk, so the next waits longer.
      expect(listClock.slept).toEqual([50, 100]);

      repository.streamsOpened = 0;
      listClock.slept.length = 0;
      repository.failures = new Map([
        [1, 1],
        ...Array.from({ length: LATER_BATCH_RETRIES }, (_, i) => [i + 2, 0] as const),
      ]);
      await expect(listArticles.execute()).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(repository.streamsOpened).toBe(LATER_BATCH_RETRIES + 1);
      // Doubling from 50 ms, at most 400: 1.55 s in all, within the 3 s in which a request is answered.
      expect(listClock.slept).toEqual([50, 100, 200, 400, 400, 400]);
    });

    it('renews the retries after a stream that sent a chunk: a list cut after every chunk still ends whole', async () => {
      const streams = LATER_BATCH_RETRIES + 3;
      for (let n = 0; n < STREAM_CHUNK_SIZE * streams; n++)
        await createArticle.execute(aCreateInput({ title: `n${n}` }), OPEN_ACTOR);
      const everything = await listArticles.execute();
      repository.streamsOpened = 0;
      // Every stream fails after its first chunk, more times than the retries: each one moved the list on.
      repository.failures = new Map(Array.from({ length: streams }, (_, i) => [i + 1, 1] as const));

      await expect(listArticles.execute()).resolves.toEqual(everything);
      expect(repository.streamsOpened).toBe(streams + 1);
    });

    it('does not retry a failure that took a second or more (a silent storage), nor one that came sooner after a slow consumer', async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE * 2; n++)
        await createArticle.execute(aCreateInput({ title: `n${n}` }), OPEN_ACTOR);
      const clock = new TestClock();
      const list = new ListVisibleArticles(repository, clock);
      const everything = await list.execute();
      repository.streamsOpened = 0;
      repository.failures = new Map([
        [1, 1],
        [2, 0],
      ]);
      // A frozen database: the statement after the first chunk gives up 2 s later. Cut, not retried.
      repository.failureTakes = { clock, ms: 2_000 };
      await expect(list.execute()).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(repository.streamsOpened).toBe(1);

      // Refused at once, after the client took 5 s to read the first chunk: retried as before.
      repository.streamsOpened = 0;
      repository.failureTakes = { clock, ms: LATER_BATCH_SLOW_FAILURE_MS - 1 };
      const batches: Article[][] = [];
      for await (const batch of list.batches()) {
        batches.push(batch);
        clock.advance(5_000);
      }
      expect(batches.flat()).toEqual(everything);
      expect(repository.streamsOpened).toBe(3);
    });

    it('does not retry before the first chunk: the client can still be answered 503', async () => {
      repository.failures = new Map([[1, 0]]);
      await expect(listArticles.batches().next()).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(repository.streamsOpened).toBe(1);
    });

    it('closes the stream, and reads no further chunk, once the caller stops', async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE * 2; n++)
        await createArticle.execute(aCreateInput({ title: `n${n}` }), OPEN_ACTOR);

      const batches = listArticles.batches();
      await batches.next();
      await batches.return(undefined);

      expect(repository.chunksRead).toBe(1);
      expect(repository.streamsClosed).toBe(1);
      await expect(batches.next()).resolves.toEqual({ done: true, value: undefined });
    });
  });

  describe('GetArticle', () => {
    it('reads an article whatever its visibility', async () => {
      await expect(getArticle.execute({ id: 2 }, OPEN_ACTOR)).resolves.toMatchObject({
        id: 2,
        title: 'hidden',
        publishedAt: null,
      });
    });

    it('answers null for an id that does not exist', async () => {
      await expect(getArticle.execute({ id: 5 }, OPEN_ACTOR)).resolves.toBeNull();
    });
  });
});
