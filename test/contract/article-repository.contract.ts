import { type ArticleRepository, STREAM_CHUNK_SIZE } from '../../src/application';
import { type Article, ArticleChangedError, UnknownReferenceError } from '../../src/domain';
import { aNewArticle, someChanges } from '../support/builders';

export interface ContractSubject {
  repository: ArticleRepository;
  /** Empties the storage between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Names whose code-point order differs from UTF-16 order and from any locale's order. */
const NAMES_IN_CODE_POINT_ORDER = ['B', 'a', 'z', 'é', 'ｚ', '😀'];

/**
 * Every expectation of the ArticleRepository port. Each adapter's test file calls this
 * unchanged; passing it is what makes the adapters interchangeable.
 */
export function articleRepositoryContract(name: string, open: () => Promise<ContractSubject>): void {
  describe(`ArticleRepository contract: ${name}`, () => {
    let subject: ContractSubject;
    let repository: ArticleRepository;

    beforeAll(async () => {
      subject = await open();
    });
    beforeEach(async () => {
      await subject.reset();
      repository = subject.repository;
    });
    afterAll(async () => {
      await subject.close();
    });

    const termNames = (article: Article | null, kind: 'tags' | 'categories' = 'tags') =>
      article?.[kind].map((term) => term.name);

    describe('create and read', () => {
      it('stores every field and answers the stored article, createdAt equal to updatedAt', async () => {
        const createdAt = new Date('2026-03-04T05:06:07.891Z');
        const created = await repository.create(
          aNewArticle().with({ title: null, description: 'd', content: 'c', visible: false }).at(createdAt).build(),
        );

        expect(created).toEqual({
          id: expect.any(Number),
          title: null,
          description: 'd',
          content: 'c',
          visible: false,
          tags: [],
          categories: [],
          createdAt,
          updatedAt: createdAt,
          version: 1,
        });
        expect(created.id).toBeGreaterThan(0);
        await expect(repository.findById(created.id)).resolves.toEqual(created);
      });

      it('gives increasing ids and lists by id ascending', async () => {
        const first = await repository.create(aNewArticle().with({ title: 'first' }).build());
        const second = await repository.create(aNewArticle().with({ title: 'second' }).build());
        const third = await repository.create(aNewArticle().with({ title: 'third' }).build());

        expect(second.id).toBeGreaterThan(first.id);
        expect(third.id).toBeGreaterThan(second.id);
        const listed = await repository.listVisible({ limit: 100 });
        expect(listed.map((article) => article.title)).toEqual(['first', 'second', 'third']);
      });

      it('answers null for an id that does not exist', async () => {
        await expect(repository.findById(424242)).resolves.toBeNull();
      });

      it('keeps timestamps to the millisecond', async () => {
        const createdAt = new Date('2030-12-31T23:59:59.999Z');
        const created = await repository.create(aNewArticle().at(createdAt).build());
        const read = await repository.findById(created.id);
        expect(read?.createdAt.toISOString()).toBe('2030-12-31T23:59:59.999Z');
        expect(read?.updatedAt.getTime()).toBe(createdAt.getTime());
      });

      it('stores the longest title and description the domain allows, counted in code points', async () => {
        const title = '😀'.repeat(200);
        const description = '𝄞'.repeat(1000);
        const created = await repository.create(
          aNewArticle().with({ title, description }).withTags('🏷'.repeat(64)).build(),
        );
        const read = await repository.findById(created.id);
        expect(read?.title).toBe(title);
        expect(read?.description).toBe(description);
        expect(termNames(read)).toEqual(['🏷'.repeat(64)]);
      });

      it('round-trips text exactly: emoji, right-to-left, SQL and HTML, long content', async () => {
        const content = `${'😀 مرحبا ; DROP TABLE articles; -- <script>alert(1)</script> \' " \\ '.repeat(2000)}\n\t `;
        const title = "Robert'); DROP TABLE tags;-- 👩‍👩‍👧";
        const created = await repository.create(aNewArticle().with({ title, content }).withTags('<b>tag</b>').build());
        const read = await repository.findById(created.id);
        expect(read?.content).toBe(content);
        expect(read?.title).toBe(title);
        expect(termNames(read)).toEqual(['<b>tag</b>']);
      });
    });

    describe('visibility', () => {
      it('lists only visible articles, with their links', async () => {
        const shown = await repository.create(aNewArticle().withTags('t').build());
        const hidden = await repository.create(aNewArticle().invisible().withTags('t').build());

        const visible = await repository.listVisible({ limit: 100 });
        expect(visible.map((article) => article.id)).toEqual([shown.id]);
        expect(visible).toEqual([shown]);
        await expect(repository.findById(hidden.id)).resolves.toEqual(hidden);
      });

      it('reads an invisible article by id', async () => {
        const hidden = await repository.create(aNewArticle().invisible().build());
        await expect(repository.findById(hidden.id)).resolves.toMatchObject({ id: hidden.id, visible: false });
      });

      it('answers an empty list when there is nothing', async () => {
        await expect(repository.listVisible({ limit: 100 })).resolves.toEqual([]);
      });
    });

    describe('tags and categories', () => {
      it('creates named terms, then links the same ones when named again', async () => {
        const first = await repository.create(
          aNewArticle().withTags({ name: 'TS', description: 'TypeScript' }).withCategories('dev').build(),
        );
        const second = await repository.create(
          aNewArticle().withTags({ name: 'TS', description: 'ignored: the tag exists' }).withCategories('dev').build(),
        );

        expect(first.tags).toEqual([{ id: expect.any(String), name: 'TS', description: 'TypeScript' }]);
        expect(second.tags).toEqual(first.tags);
        expect(second.categories).toEqual(first.categories);
        await expect(repository.listTerms('tag')).resolves.toEqual(first.tags);
        await expect(repository.listTerms('category')).resolves.toEqual(first.categories);
      });

      it('links existing terms by id', async () => {
        const seeded = await repository.create(aNewArticle().withTags('one', 'two').withCategories('c').build());
        const [one, two] = seeded.tags;
        const linked = await repository.create(
          aNewArticle()
            .withTags({ id: two?.id ?? '' }, { id: one?.id ?? '' })
            .withCategories({ id: seeded.categories[0]?.id ?? '' })
            .build(),
        );
        expect(linked.tags).toEqual(seeded.tags);
        expect(linked.categories).toEqual(seeded.categories);
        await expect(repository.findById(linked.id)).resolves.toEqual(linked);
      });

      it('links a term once when it is referenced by id and by name', async () => {
        const seeded = await repository.create(aNewArticle().withTags('dup').build());
        const id = seeded.tags[0]?.id ?? '';
        const linked = await repository.create(aNewArticle().withTags({ id }, 'dup').build());
        expect(linked.tags).toEqual(seeded.tags);
        await expect(repository.findById(linked.id)).resolves.toEqual(linked);
      });

      it('orders terms by code point, in articles and in lists', async () => {
        const created = await repository.create(
          aNewArticle()
            .withTags(...[...NAMES_IN_CODE_POINT_ORDER].reverse())
            .withCategories(...[...NAMES_IN_CODE_POINT_ORDER].reverse())
            .build(),
        );
        expect(termNames(created)).toEqual(NAMES_IN_CODE_POINT_ORDER);
        expect(termNames(await repository.findById(created.id))).toEqual(NAMES_IN_CODE_POINT_ORDER);
        expect(termNames(await repository.findById(created.id), 'categories')).toEqual(NAMES_IN_CODE_POINT_ORDER);
        const [listed] = await repository.listVisible({ limit: 100 });
        expect(termNames(listed ?? null)).toEqual(NAMES_IN_CODE_POINT_ORDER);
        const tags = await repository.listTerms('tag');
        expect(tags.map((tag) => tag.name)).toEqual(NAMES_IN_CODE_POINT_ORDER);
      });

      it('compares names exactly: case and accents make different terms', async () => {
        const created = await repository.create(aNewArticle().withTags('ts', 'TS', 'Ts', '\u00e9', 'e\u0301').build());
        expect(termNames(created)).toHaveLength(5);
        await expect(repository.listTerms('tag')).resolves.toHaveLength(5);
      });

      it('keeps tags and categories apart: the same name is two terms', async () => {
        const created = await repository.create(aNewArticle().withTags('shared').withCategories('shared').build());
        expect(created.tags[0]?.id).not.toBe(created.categories[0]?.id);
        await expect(repository.listTerms('tag')).resolves.toHaveLength(1);
        await expect(repository.listTerms('category')).resolves.toHaveLength(1);
      });

      it('rejects an unknown id and writes nothing of that request', async () => {
        const attempt = repository.create(
          aNewArticle().withTags('brand-new', { id: 'no-such-tag' }).withCategories('also-new').build(),
        );
        await expect(attempt).rejects.toEqual(new UnknownReferenceError('tag', 'no-such-tag'));
        await expect(repository.listVisible({ limit: 100 })).resolves.toEqual([]);
        await expect(repository.listTerms('tag')).resolves.toEqual([]);
        await expect(repository.listTerms('category')).resolves.toEqual([]);
      });

      it('rejects an unknown category id after the tags resolved, and writes nothing', async () => {
        const attempt = repository.create(aNewArticle().withTags('new-tag').withCategories({ id: 'nope' }).build());
        await expect(attempt).rejects.toEqual(new UnknownReferenceError('category', 'nope'));
        await expect(repository.listTerms('tag')).resolves.toEqual([]);
      });

      it('ends with one term, linked everywhere, when concurrent writes name the same new term', async () => {
        const writes = Array.from({ length: 12 }, (_, index) =>
          repository.create(
            aNewArticle()
              .with({ title: `racer ${index}` })
              .withTags('race', `own-${index}`, 'race-2')
              .withCategories('race')
              .build(),
          ),
        );
        const created = await Promise.all(writes);

        const tags = await repository.listTerms('tag');
        expect(tags.filter((tag) => tag.name === 'race')).toHaveLength(1);
        expect(tags.filter((tag) => tag.name === 'race-2')).toHaveLength(1);
        await expect(repository.listTerms('category')).resolves.toHaveLength(1);
        const raceId = tags.find((tag) => tag.name === 'race')?.id;
        const listed = await repository.listVisible({ limit: 100 });
        expect(listed).toHaveLength(12);
        for (const article of listed) {
          expect(article.tags.map((tag) => tag.id)).toContain(raceId);
          expect(article.categories).toHaveLength(1);
        }
        expect(new Set(created.map((article) => article.id)).size).toBe(12);
      });

      it('keeps a term when no article links it any more', async () => {
        const created = await repository.create(aNewArticle().withTags('lonely').build());
        await repository.update(created.id, someChanges().replacingTags().build());
        await expect(repository.listTerms('tag')).resolves.toEqual([created.tags[0]]);
      });
    });

    describe('pages and filters', () => {
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

        await expect(repository.listVisible({ limit: 3 }).then(ids)).resolves.toEqual([a0, a1, a2]);
        await expect(repository.listVisible({ limit: 3, afterId: a2 }).then(ids)).resolves.toEqual([a3, a4, a5]);
        await expect(repository.listVisible({ limit: 3, afterId: a5 }).then(ids)).resolves.toEqual([a6]);
        await expect(repository.listVisible({ limit: 3, afterId: a6 })).resolves.toEqual([]);
        await expect(repository.listVisible({ limit: 1, afterId: 2_147_483_647 })).resolves.toEqual([]);
      });

      it('keeps only articles linked to the named tag, the named category, or both', async () => {
        const both = await repository.create(aNewArticle().withTags('ts', 'x').withCategories('dev').build());
        const tagOnly = await repository.create(aNewArticle().withTags('ts').withCategories('ops').build());
        const categoryOnly = await repository.create(aNewArticle().withTags('go').withCategories('dev').build());
        await repository.create(aNewArticle().invisible().withTags('ts').withCategories('dev').build());
        await repository.create(aNewArticle().build());

        const tagged = await repository.listVisible({ limit: 10, tagName: 'ts' });
        expect(ids(tagged)).toEqual([both.id, tagOnly.id]);
        // A filtered article still carries all of its links.
        expect(tagged[0]).toEqual(both);
        await expect(repository.listVisible({ limit: 10, categoryName: 'dev' }).then(ids)).resolves.toEqual([
          both.id,
          categoryOnly.id,
        ]);
        await expect(
          repository.listVisible({ limit: 10, tagName: 'ts', categoryName: 'dev' }).then(ids),
        ).resolves.toEqual([both.id]);
        await expect(repository.listVisible({ limit: 1, afterId: both.id, tagName: 'ts' }).then(ids)).resolves.toEqual([
          tagOnly.id,
        ]);
      });

      it('matches names exactly, and an unknown name matches nothing', async () => {
        await repository.create(aNewArticle().withTags('TS').withCategories('Dev').build());
        await expect(repository.listVisible({ limit: 10, tagName: 'ts' })).resolves.toEqual([]);
        await expect(repository.listVisible({ limit: 10, tagName: 'nope' })).resolves.toEqual([]);
        await expect(repository.listVisible({ limit: 10, categoryName: 'dev' })).resolves.toEqual([]);
        // A tag's name is not a category's.
        await expect(repository.listVisible({ limit: 10, categoryName: 'TS' })).resolves.toEqual([]);
      });
    });

    describe('the whole list as a stream', () => {
      const ids = (articles: readonly Article[]) => articles.map((article) => article.id);

      /** Every chunk of a stream, read to its end. */
      async function chunksOf(stream: AsyncGenerator<Article[]>): Promise<Article[][]> {
        const chunks: Article[][] = [];
        for await (const chunk of stream) chunks.push(chunk);
        return chunks;
      }

      /** The same list read page after page: what the stream must equal. */
      async function paged(filter: { tagName?: string; categoryName?: string; afterId?: number }) {
        const all: Article[] = [];
        for (let page = await repository.listVisible({ ...filter, limit: 100 }); page.length > 0; ) {
          all.push(...page);
          page = await repository.listVisible({
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
          const article = aNewArticle().with({ title: `a${n}`, visible: n % 7 !== 3 });
          if (n % 3 === 0) article.withTags('t', `t${n % 5}`);
          if (n % 2 === 0) article.withCategories('c');
          await repository.create(article.build());
        }

        const chunks = await chunksOf(repository.streamVisible({}));

        expect(chunks.length).toBeGreaterThanOrEqual(3);
        for (const chunk of chunks) expect(chunk.length).toBeGreaterThan(0);
        for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(STREAM_CHUNK_SIZE);
        const streamed = chunks.flat();
        expect(streamed).toHaveLength(count - Math.ceil((count - 3) / 7));
        expect(streamed.every((article) => article.visible)).toBe(true);
        const streamedIds = ids(streamed);
        expect(streamedIds).toEqual([...streamedIds].sort((a, b) => a - b));
        expect(new Set(streamedIds).size).toBe(streamedIds.length);
        expect(streamed).toEqual(await paged({}));
        // 1,300 creates one by one: slow on a busy machine.
      }, 120_000);

      it('applies the tag, category and after filters as a page does', async () => {
        const both = await repository.create(aNewArticle().withTags('ts', 'x').withCategories('dev').build());
        const tagOnly = await repository.create(aNewArticle().withTags('ts').withCategories('ops').build());
        const categoryOnly = await repository.create(aNewArticle().withTags('go').withCategories('dev').build());
        await repository.create(aNewArticle().invisible().withTags('ts').withCategories('dev').build());
        const plain = await repository.create(aNewArticle().build());

        const streamed = async (filter: Parameters<typeof repository.streamVisible>[0]) =>
          (await chunksOf(repository.streamVisible(filter))).flat();
        await expect(streamed({ tagName: 'ts' })).resolves.toEqual([both, tagOnly]);
        await expect(streamed({ categoryName: 'dev' })).resolves.toEqual([both, categoryOnly]);
        await expect(streamed({ tagName: 'ts', categoryName: 'dev' })).resolves.toEqual([both]);
        await expect(streamed({ afterId: tagOnly.id })).resolves.toEqual([categoryOnly, plain]);
        await expect(streamed({ afterId: both.id, tagName: 'ts' })).resolves.toEqual([tagOnly]);
        await expect(chunksOf(repository.streamVisible({ tagName: 'nope' }))).resolves.toEqual([]);
        await expect(chunksOf(repository.streamVisible({ categoryName: 'TS' }))).resolves.toEqual([]);
      });

      it('lets writes and reads run while a stream is open, and a stream closed early lets go of the storage', async () => {
        for (let n = 0; n < STREAM_CHUNK_SIZE + 1; n++) await repository.create(aNewArticle().build());
        const stream = repository.streamVisible({});
        const first = await stream.next();
        expect(first.value).toHaveLength(STREAM_CHUNK_SIZE);

        // Between two chunks the rest of the storage is free (SQLite: the stream has its own connection).
        const written = await repository.create(aNewArticle().withTags('during').build());
        await expect(
          repository.update(written.id, someChanges().with({ title: 'changed' }).build()),
        ).resolves.toMatchObject({ title: 'changed' });
        await expect(repository.findById(written.id)).resolves.toMatchObject({ title: 'changed' });

        await expect(stream.return(undefined)).resolves.toEqual({ done: true, value: undefined });
        await expect(stream.next()).resolves.toEqual({ done: true, value: undefined });
        // Closing early, again and again, leaves nothing held: every stream still gets a connection.
        for (let n = 0; n < 15; n++) {
          const again = repository.streamVisible({});
          await again.next();
          await again.return(undefined);
        }
        await expect(chunksOf(repository.streamVisible({ tagName: 'during' }))).resolves.toEqual([
          [expect.objectContaining({ id: written.id, title: 'changed' })],
        ]);
      });
    });

    describe('delete', () => {
      it('removes the article and its links, keeps its terms, and answers it as it was', async () => {
        const kept = await repository.create(aNewArticle().withTags('t').withCategories('c').build());
        const doomed = await repository.create(aNewArticle().withTags('t', 'u').withCategories('c').build());

        await expect(repository.delete(doomed.id)).resolves.toEqual(doomed);
        await expect(repository.findById(doomed.id)).resolves.toBeNull();
        await expect(repository.listVisible({ limit: 10, tagName: 'u' })).resolves.toEqual([]);
        await expect(repository.listVisible({ limit: 10 })).resolves.toEqual([kept]);
        await expect(repository.listTerms('tag').then((tags) => tags.map((tag) => tag.name))).resolves.toEqual([
          't',
          'u',
        ]);
        await expect(repository.listTerms('category')).resolves.toHaveLength(1);
      });

      it('answers null for an unknown id', async () => {
        await expect(repository.delete(424242)).resolves.toBeNull();
      });
    });

    describe('versions and conditional writes', () => {
      it('counts the version up with each update', async () => {
        const created = await repository.create(aNewArticle().build());
        expect(created.version).toBe(1);
        await repository.update(created.id, someChanges().with({ title: 'one' }).build());
        const updated = await repository.update(created.id, someChanges().replacingTags('t').build());
        expect(updated?.version).toBe(3);
        await expect(repository.findById(created.id)).resolves.toMatchObject({ version: 3 });
      });

      it('applies an update only at an expected version, else writes nothing', async () => {
        const created = await repository.create(aNewArticle().withTags('before').build());
        const stale = repository.update(
          created.id,
          someChanges().with({ title: 'stale' }).replacingTags('after').build(),
          { versions: [7, 8] },
        );
        await expect(stale).rejects.toEqual(new ArticleChangedError(created.id));
        await expect(
          repository.update(created.id, someChanges().with({ title: 'x' }).build(), { versions: [] }),
        ).rejects.toBeInstanceOf(ArticleChangedError);
        await expect(repository.findById(created.id)).resolves.toEqual(created);
        await expect(repository.listTerms('tag')).resolves.toEqual(created.tags);

        const fresh = await repository.update(created.id, someChanges().with({ title: 'fresh' }).build(), {
          versions: [5, 1],
        });
        expect(fresh).toMatchObject({ title: 'fresh', version: 2 });
      });

      it('answers null, not a conflict, for a conditional update of an unknown id', async () => {
        await expect(repository.update(424242, someChanges().build(), { versions: [1] })).resolves.toBeNull();
        await expect(repository.delete(424242, { versions: [1] })).resolves.toBeNull();
      });

      it('deletes only at an expected version', async () => {
        const created = await repository.create(aNewArticle().build());
        await expect(repository.delete(created.id, { versions: [2] })).rejects.toEqual(
          new ArticleChangedError(created.id),
        );
        await expect(repository.findById(created.id)).resolves.toEqual(created);
        await expect(repository.delete(created.id, { versions: [1] })).resolves.toEqual(created);
      });

      it('lets exactly one of several concurrent writes at the same version succeed', async () => {
        const created = await repository.create(aNewArticle().build());
        const outcomes = await Promise.allSettled(
          Array.from({ length: 20 }, (_, index) =>
            repository.update(
              created.id,
              someChanges()
                .with({ title: `editor ${index}` })
                .replacingTags(`t${index}`)
                .build(),
              { versions: [created.version] },
            ),
          ),
        );
        const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const refused = outcomes.filter(
          (outcome) => outcome.status === 'rejected' && outcome.reason instanceof ArticleChangedError,
        );
        expect(succeeded).toHaveLength(1);
        expect(refused).toHaveLength(19);
        const final = await repository.findById(created.id);
        expect(final).toEqual((succeeded[0] as PromiseFulfilledResult<Article>).value);
        expect(final?.version).toBe(2);
      });
    });

    describe('update', () => {
      it('applies only the fields given and sets updatedAt, leaving createdAt and links', async () => {
        const created = await repository.create(aNewArticle().withTags('keep').withCategories('keep-c').build());
        const updatedAt = new Date(created.createdAt.getTime() + 60_000);
        const updated = await repository.update(
          created.id,
          someChanges().with({ title: 'new title' }).at(updatedAt).build(),
        );

        expect(updated).toEqual({ ...created, title: 'new title', updatedAt, version: 2 });
        await expect(repository.findById(created.id)).resolves.toEqual(updated);
      });

      it('with no field only refreshes updatedAt', async () => {
        const created = await repository.create(aNewArticle().build());
        const updatedAt = new Date(created.createdAt.getTime() + 1);
        const updated = await repository.update(created.id, someChanges().at(updatedAt).build());
        expect(updated).toEqual({ ...created, updatedAt, version: 2 });
      });

      it('sets every writable field, title to null included', async () => {
        const created = await repository.create(aNewArticle().build());
        const fields = { title: null, description: 'new d', content: ' ', visible: false };
        const updated = await repository.update(created.id, someChanges().with(fields).build());
        expect(updated).toMatchObject(fields);
        await expect(repository.findById(created.id)).resolves.toMatchObject(fields);
      });

      it('replaces the whole set of links of a kind that is given, and only that kind', async () => {
        const created = await repository.create(aNewArticle().withTags('a', 'b').withCategories('c').build());
        const updated = await repository.update(created.id, someChanges().replacingTags('b', 'x').build());
        expect(termNames(updated)).toEqual(['b', 'x']);
        expect(updated?.categories).toEqual(created.categories);
        expect(termNames(await repository.findById(created.id))).toEqual(['b', 'x']);
      });

      it('clears the links of a kind given as empty', async () => {
        const created = await repository.create(aNewArticle().withTags('a').withCategories('c').build());
        const updated = await repository.update(
          created.id,
          someChanges().replacingTags().replacingCategories().build(),
        );
        expect(updated?.tags).toEqual([]);
        expect(updated?.categories).toEqual([]);
        await expect(repository.findById(created.id)).resolves.toMatchObject({ tags: [], categories: [] });
      });

      it('answers null for an unknown id and creates nothing, not even named terms', async () => {
        const result = await repository.update(9999, someChanges().with({ title: 'x' }).replacingTags('ghost').build());
        expect(result).toBeNull();
        await expect(repository.listVisible({ limit: 100 })).resolves.toEqual([]);
        await expect(repository.listTerms('tag')).resolves.toEqual([]);
      });

      it('is all or nothing: an unknown reference leaves fields, links and terms as they were', async () => {
        const created = await repository.create(aNewArticle().withTags('kept').build());
        const attempt = repository.update(
          created.id,
          someChanges().with({ title: 'lost' }).replacingTags('new-one', { id: 'missing' }).build(),
        );
        await expect(attempt).rejects.toBeInstanceOf(UnknownReferenceError);
        await expect(repository.findById(created.id)).resolves.toEqual(created);
        await expect(repository.listTerms('tag')).resolves.toEqual(created.tags);
      });

      it('never moves updatedAt back: an update stamped earlier than the stored one keeps the later stamp', async () => {
        // What happens when two updates commit in another order than the one they read the clock in.
        const created = await repository.create(aNewArticle().build());
        const later = new Date(created.createdAt.getTime() + 5_000);
        const earlier = new Date(created.createdAt.getTime() + 1_000);
        await repository.update(created.id, someChanges().with({ title: 'later' }).at(later).build());
        const updated = await repository.update(
          created.id,
          someChanges().with({ title: 'earlier' }).at(earlier).build(),
        );

        expect(updated).toMatchObject({ title: 'earlier', updatedAt: later });
        await expect(repository.findById(created.id)).resolves.toMatchObject({ title: 'earlier', updatedAt: later });
      });

      it('ends on one of the written states when updates of one article race', async () => {
        const created = await repository.create(aNewArticle().build());
        const titles = Array.from({ length: 10 }, (_, index) => `title ${index}`);
        const results = await Promise.all(
          titles.map((title, index) =>
            repository.update(
              created.id,
              someChanges()
                .with({ title })
                .replacingTags(`tag ${index}`)
                .at(new Date(created.createdAt.getTime() + index + 1))
                .build(),
            ),
          ),
        );
        expect(results.every((result) => result !== null)).toBe(true);
        const final = await repository.findById(created.id);
        const index = titles.indexOf(final?.title ?? '');
        expect(index).toBeGreaterThanOrEqual(0);
        // Title and links come from the same write: no mix of two updates.
        expect(termNames(final)).toEqual([`tag ${index}`]);
      });
    });
  });
}
