import { type ArticleRepository, STREAM_CHUNK_SIZE } from '../../../src/application';
import { type Article, foldForSearch } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** The whole visible list read as a stream of chunks: the same articles a page-by-page read gives. */
export function wholeListStreamContract(open: OpenContractSubject): void {
  describe('the whole list as a stream', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    const ids = (articles: readonly Article[]) => articles.map((article) => article.id);

    /** Every chunk of a stream, read to its end. */
    async function chunksOf(stream: AsyncGenerator<Article[]>): Promise<Article[][]> {
      const chunks: Article[][] = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    }

    /** The same list read page after page: what the stream must equal. */
    async function paged(filter: { tagName?: string; categoryName?: string; afterId?: number; foldedQuery?: string }) {
      const all: Article[] = [];
      for (let page = await repository.listVisible({ moment: READ_MOMENT, ...filter, limit: 100 }); page.length > 0; ) {
        all.push(...page);
        page = await repository.listVisible({
          moment: READ_MOMENT,
          ...filter,
          limit: 100,
          afterId: (page[page.length - 1] as Article).id,
        });
      }
      return all;
    }

    it(`answers every visible article once, by id, with its links, in chunks of at most ${STREAM_CHUNK_SIZE}`, async () => {
      const count = STREAM_CHUNK_SIZE * 2 + 300;
      for (let n = 0; n < count; n++) {
        const article = aNewArticle().with({ title: `a${n}` });
        if (n % 7 === 3) article.invisible();
        if (n % 3 === 0) article.withTags('t', `t${n % 5}`);
        if (n % 2 === 0) article.withCategories('c');
        await repository.create(article.build());
      }

      const chunks = await chunksOf(repository.streamVisible({ moment: READ_MOMENT }));

      expect(chunks.length).toBeGreaterThanOrEqual(3);
      for (const chunk of chunks) expect(chunk.length).toBeGreaterThan(0);
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(STREAM_CHUNK_SIZE);
      const streamed = chunks.flat();
      expect(streamed).toHaveLength(count - Math.ceil((count - 3) / 7));
      expect(streamed.every((article) => article.publishedAt !== null)).toBe(true);
      const streamedIds = ids(streamed);
      expect(streamedIds).toEqual([...streamedIds].sort((a, b) => a - b));
      expect(new Set(streamedIds).size).toBe(streamedIds.length);
      expect(streamed).toEqual(await paged({}));
      // 1,300 creates one by one: slow on a busy machine.
    }, 120_000);

    it("answers each article's terms in name order by code point, whatever order their ids are in", async () => {
      // Eight terms of each kind, their ids random: in name order by chance once in 40,320 runs.
      const names = ['😀', 'ｚ', 'é', 'b', 'a', 'B', 'A', 'a b'];
      const inNameOrder = ['A', 'B', 'a', 'a b', 'b', 'é', 'ｚ', '😀'];
      const created = await repository.create(
        aNewArticle()
          .withTags(...names)
          .withCategories(...names.map((name) => `c ${name}`))
          .build(),
      );

      const [streamed] = (await chunksOf(repository.streamVisible({ moment: READ_MOMENT }))).flat();
      expect(streamed?.tags.map((tag) => tag.name)).toEqual(inNameOrder);
      expect(streamed?.categories.map((category) => category.name)).toEqual(inNameOrder.map((name) => `c ${name}`));
      expect(streamed).toEqual(created);
    });

    it('applies the tag, category and after filters as a page does', async () => {
      const both = await repository.create(aNewArticle().withTags('ts', 'x').withCategories('dev').build());
      const tagOnly = await repository.create(aNewArticle().withTags('ts').withCategories('ops').build());
      const categoryOnly = await repository.create(aNewArticle().withTags('go').withCategories('dev').build());
      await repository.create(aNewArticle().invisible().withTags('ts').withCategories('dev').build());
      const plain = await repository.create(aNewArticle().build());

      const streamed = async (filter: Omit<Parameters<typeof repository.streamVisible>[0], 'moment'>) =>
        (await chunksOf(repository.streamVisible({ moment: READ_MOMENT, ...filter }))).flat();
      await expect(streamed({ tagName: 'ts' })).resolves.toEqual([both, tagOnly]);
      await expect(streamed({ categoryName: 'dev' })).resolves.toEqual([both, categoryOnly]);
      await expect(streamed({ tagName: 'ts', categoryName: 'dev' })).resolves.toEqual([both]);
      await expect(streamed({ afterId: tagOnly.id })).resolves.toEqual([categoryOnly, plain]);
      await expect(streamed({ afterId: both.id, tagName: 'ts' })).resolves.toEqual([tagOnly]);
      await expect(chunksOf(repository.streamVisible({ moment: READ_MOMENT, tagName: 'nope' }))).resolves.toEqual([]);
      await expect(chunksOf(repository.streamVisible({ moment: READ_MOMENT, categoryName: 'TS' }))).resolves.toEqual(
        [],
      );
    });

    it('applies q (long and short, with a tag) as a page does', async () => {
      const title = await repository.create(aNewArticle().with({ title: 'Blog TIPS' }).withTags('ts').build());
      await repository.create(aNewArticle().with({ content: 'nothing here' }).build());
      const content = await repository.create(aNewArticle().with({ content: '我的博客 tips' }).build());
      await repository.create(aNewArticle().invisible().with({ content: 'tips' }).build());

      const streamed = async (filter: Omit<Parameters<typeof repository.streamVisible>[0], 'moment'>) =>
        (await chunksOf(repository.streamVisible({ moment: READ_MOMENT, ...filter }))).flat();
      for (const q of ['TIPS', '博客', 'ip']) {
        const filter = { foldedQuery: foldForSearch(q) };
        await expect(streamed(filter)).resolves.toEqual(await paged(filter));
      }
      await expect(streamed({ foldedQuery: foldForSearch('Tips') })).resolves.toEqual([title, content]);
      await expect(streamed({ foldedQuery: 'tips', tagName: 'ts' })).resolves.toEqual([title]);
      await expect(streamed({ foldedQuery: 'tips', afterId: title.id })).resolves.toEqual([content]);
    });

    it('lets writes and reads run while a stream is open, and a stream closed early lets go of the storage', async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE + 1; n++) await repository.create(aNewArticle().build());
      const stream = repository.streamVisible({ moment: READ_MOMENT });
      const first = await stream.next();
      expect(first.value).toHaveLength(STREAM_CHUNK_SIZE);

      // Between two chunks the rest of the storage is free (SQLite: the stream has its own connection).
      const written = await repository.create(aNewArticle().withTags('during').build());
      await expect(
        repository.update(written.id, someChanges().with({ title: 'changed' }).build(), undefined, ANY_WRITER),
      ).resolves.toMatchObject({ title: 'changed' });
      await expect(repository.findById(written.id)).resolves.toMatchObject({ title: 'changed' });

      await expect(stream.return(undefined)).resolves.toEqual({ done: true, value: undefined });
      await expect(stream.next()).resolves.toEqual({ done: true, value: undefined });
      // Closing early, again and again, leaves nothing held: every stream still gets a connection.
      for (let n = 0; n < 15; n++) {
        const again = repository.streamVisible({ moment: READ_MOMENT });
        await again.next();
        await again.return(undefined);
      }
      await expect(chunksOf(repository.streamVisible({ moment: READ_MOMENT, tagName: 'during' }))).resolves.toEqual([
        [expect.objectContaining({ id: written.id, title: 'changed' })],
      ]);
    });
  });
}
