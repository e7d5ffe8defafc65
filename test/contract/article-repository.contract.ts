import fc from 'fast-check';
import {
  type ArticleRepository,
  type IdempotencyClaim,
  STREAM_CHUNK_SIZE,
  type VisibleArticlesPage,
} from '../../src/application';
import { type Article, ArticleChangedError, foldForSearch, UnknownReferenceError } from '../../src/domain';
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

    describe('search (q, folded by foldForSearch)', () => {
      const ids = (articles: readonly Article[]) => articles.map((article) => article.id);
      /** The ids of the visible articles whose text contains q, as the use case asks for them. */
      const search = (
        q: string,
        filter: Omit<VisibleArticlesPage, 'limit' | 'foldedQuery'> & { limit?: number } = {},
      ) => repository.listVisible({ limit: 100, ...filter, foldedQuery: foldForSearch(q) }).then(ids);
      const withContent = (content: string) => repository.create(aNewArticle().with({ content }).build());

      it('ignores case as toLowerCase does, in ASCII and beyond', async () => {
        const ascii = await repository.create(aNewArticle().with({ title: 'TypeScript tips' }).build());
        const german = await withContent('GRÜSSE AUS KÖLN');
        const greek = await withContent('Η ΣΟΦΙΑ');
        const turkish = await withContent('İstanbul');
        await withContent('Some content');

        for (const q of ['TypeScript', 'typescript', 'TYPESCRIPT', 'tYpEsCrIpT']) {
          await expect(search(q)).resolves.toEqual([ascii.id]);
        }
        await expect(search('grüsse aus köln')).resolves.toEqual([german.id]);
        await expect(search('Köln')).resolves.toEqual([german.id]);
        await expect(search('σοφια')).resolves.toEqual([greek.id]);
        // toLowerCase turns İ into i + U+0307 (no locale): İSTANBUL finds it, a plain "istanbul" does not.
        await expect(search('İSTANBUL')).resolves.toEqual([turkish.id]);
        await expect(search('istanbul')).resolves.toEqual([]);
      });

      it('keeps accents: Café finds café and CAFÉ, not cafe', async () => {
        const lower = await withContent('un café noir');
        const upper = await withContent('UN CAFÉ NOIR');
        const plain = await withContent('un cafe noir');

        await expect(search('Café')).resolves.toEqual([lower.id, upper.id]);
        await expect(search('cafe')).resolves.toEqual([plain.id]);
        await expect(search('é')).resolves.toEqual([lower.id, upper.id]);
      });

      it('finds CJK text, two characters or more', async () => {
        const blog = await withContent('这是我的博客文章');
        const other = await withContent('博物馆的客人');
        await expect(search('博客')).resolves.toEqual([blog.id]);
        await expect(search('我的博客')).resolves.toEqual([blog.id]);
        await expect(search('博')).resolves.toEqual([blog.id, other.id]);
      });

      it('searches title, description and content, each on its own', async () => {
        const inTitle = await repository.create(
          aNewArticle().with({ title: 'Needle here', description: 'zzz', content: 'yyy' }).build(),
        );
        const inDescription = await repository.create(
          aNewArticle().with({ title: null, description: 'a needle there', content: 'yyy' }).build(),
        );
        const inContent = await repository.create(
          aNewArticle().with({ title: 'T', description: 'zzz', content: 'the NEEDLE' }).build(),
        );
        await expect(search('needle')).resolves.toEqual([inTitle.id, inDescription.id, inContent.id]);
        // The end of one field and the start of the next are not one text.
        const split = await repository.create(
          aNewArticle().with({ title: 'ab', description: 'cd', content: 'ef' }).build(),
        );
        await expect(search('bc')).resolves.toEqual([]);
        await expect(search('abcd')).resolves.toEqual([]);
        await expect(search('cdef')).resolves.toEqual([]);
        await expect(search('ab')).resolves.toEqual([split.id]);
      });

      it('takes every character literally: % _ \\ * quotes, and inner spaces', async () => {
        const percent = await withContent('100% sure');
        await withContent('1000 sure');
        const underscore = await withContent('snake_case');
        await withContent('snakeXcase');
        const backslash = await withContent('C:\\temp\\x');
        await withContent('C:/temp/x');
        const star = await withContent('a*b');
        await withContent('aXXb');
        const quotes = await withContent(`it's "quoted"`);
        const spaced = await withContent('say hello world');
        await withContent('hello  world, world hello');

        await expect(search('%')).resolves.toEqual([percent.id]);
        await expect(search('0% s')).resolves.toEqual([percent.id]);
        await expect(search('_')).resolves.toEqual([underscore.id]);
        await expect(search('e_c')).resolves.toEqual([underscore.id]);
        await expect(search('\\')).resolves.toEqual([backslash.id]);
        await expect(search(':\\temp\\')).resolves.toEqual([backslash.id]);
        await expect(search('*')).resolves.toEqual([star.id]);
        await expect(search('a*b')).resolves.toEqual([star.id]);
        await expect(search("'")).resolves.toEqual([quotes.id]);
        await expect(search('"')).resolves.toEqual([quotes.id]);
        await expect(search(`'s "quoted"`)).resolves.toEqual([quotes.id]);
        await expect(search('"quoted" OR x')).resolves.toEqual([]);
        await expect(search('hello world')).resolves.toEqual([spaced.id]);
        await expect(search('%%%')).resolves.toEqual([]);
        await expect(search('___')).resolves.toEqual([]);
      });

      it('follows updates: text removed is no longer found, text added is', async () => {
        const article = await repository.create(
          aNewArticle().with({ title: 'Old title', description: 'old words', content: 'old body' }).build(),
        );
        await expect(search('old')).resolves.toEqual([article.id]);

        await repository.update(article.id, someChanges().with({ title: 'New title', content: 'new body' }).build());
        // Still in the description, which the update left alone.
        await expect(search('old')).resolves.toEqual([article.id]);
        await expect(search('new body')).resolves.toEqual([article.id]);
        await expect(search('old body')).resolves.toEqual([]);

        await repository.update(article.id, someChanges().with({ description: 'fresh', title: null }).build());
        await expect(search('old')).resolves.toEqual([]);
        await expect(search('title')).resolves.toEqual([]);
        await expect(search('fresh')).resolves.toEqual([article.id]);

        // An update that does not touch the text keeps it findable.
        await repository.update(article.id, someChanges().replacingTags('t').build());
        await expect(search('fresh')).resolves.toEqual([article.id]);
      });

      it('forgets a deleted article and skips invisible ones', async () => {
        const kept = await withContent('needle one');
        const deleted = await withContent('needle two');
        await repository.create(aNewArticle().invisible().with({ content: 'needle three' }).build());
        await repository.delete(deleted.id);
        await expect(search('needle')).resolves.toEqual([kept.id]);
        await expect(search('two')).resolves.toEqual([]);
      });

      it('combines with tag, category, after and limit', async () => {
        const a = await repository.create(
          aNewArticle().with({ content: 'rust' }).withTags('t1').withCategories('c1').build(),
        );
        const b = await repository.create(
          aNewArticle().with({ content: 'rust' }).withTags('t1').withCategories('c2').build(),
        );
        const c = await repository.create(
          aNewArticle().with({ content: 'rust' }).withTags('t2').withCategories('c1').build(),
        );
        await repository.create(aNewArticle().with({ content: 'go' }).withTags('t1').withCategories('c1').build());

        await expect(search('Rust', { tagName: 't1' })).resolves.toEqual([a.id, b.id]);
        await expect(search('Rust', { categoryName: 'c1' })).resolves.toEqual([a.id, c.id]);
        await expect(search('Rust', { tagName: 't1', categoryName: 'c1' })).resolves.toEqual([a.id]);
        await expect(search('Rust', { afterId: a.id })).resolves.toEqual([b.id, c.id]);
        await expect(search('Rust', { limit: 1, afterId: a.id })).resolves.toEqual([b.id]);
        await expect(search('Rust', { tagName: 'nope' })).resolves.toEqual([]);
        // Short queries (under 3 code points) combine the same way.
        await expect(search('ru', { tagName: 't1', categoryName: 'c1' })).resolves.toEqual([a.id]);
        await expect(search('ru', { afterId: a.id, limit: 1 })).resolves.toEqual([b.id]);
      });

      it('finds matches far apart, past a long run of articles that do not match', async () => {
        const first = await withContent('needle 1');
        for (let n = 0; n < 600; n++) await withContent(`hay ${n}`);
        const second = await withContent('needle 2');
        const third = await withContent('needle 3');
        await expect(search('needle', { limit: 2 })).resolves.toEqual([first.id, second.id]);
        await expect(search('needle', { limit: 2, afterId: second.id })).resolves.toEqual([third.id]);
        await expect(search('needle', { limit: 2, afterId: first.id })).resolves.toEqual([second.id, third.id]);
        await expect(search('ne', { limit: 2 })).resolves.toEqual([first.id, second.id]);
      });

      it('agrees with toLowerCase().includes() on random text of confusable characters', async () => {
        // Characters whose folding differs between JavaScript, PostgreSQL locales and SQLite, and
        // the pattern characters of LIKE, GLOB and FTS5 queries.
        const alphabet = [...'aAéÉiIİıßẞΣσςKk博客%_\\*"\' ?'];
        const text = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 12 }).map((c) => c.join(''));
        const created: { id: number; texts: string[] }[] = [];
        await fc.assert(
          fc.asyncProperty(
            fc.tuple(text, text, text),
            fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(5), fc.boolean()), { minLength: 1, maxLength: 4 }),
            async ([title, description, content], picks) => {
              const article = await repository.create(aNewArticle().with({ title, description, content }).build());
              created.push({ id: article.id, texts: [title, description, content] });
              for (const [which, start, length, upper] of picks) {
                const source = created[which % created.length]?.texts[which % 3] ?? '';
                const slice = [...source].slice(start % source.length, (start % source.length) + 1 + length).join('');
                const q = (upper ? slice.toUpperCase() : slice).trim();
                if (q.length === 0) continue;
                const expected = created
                  .filter((a) => a.texts.some((t) => t.toLowerCase().includes(q.toLowerCase())))
                  .map((a) => a.id);
                await expect(search(q, { limit: 100 })).resolves.toEqual(expected.slice(0, 100));
              }
            },
          ),
          { numRuns: 40, seed: 18 },
        );
      });

      it('pages through every match once, by id, long and short queries alike', async () => {
        const matching: number[] = [];
        for (let n = 0; n < 13; n++) {
          const hit = n % 3 !== 1;
          const article = await withContent(hit ? `Match ${n}` : `other ${n}`);
          if (hit) matching.push(article.id);
        }
        for (const q of ['match', 'ma']) {
          const seen: number[] = [];
          let afterId: number | undefined;
          for (;;) {
            const page = await search(q, { limit: 2, afterId });
            seen.push(...page);
            if (page.length < 2) break;
            afterId = page[page.length - 1];
          }
          expect(seen).toEqual(matching);
        }
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
      async function paged(filter: {
        tagName?: string;
        categoryName?: string;
        afterId?: number;
        foldedQuery?: string;
      }) {
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

      it('applies q (long and short, with a tag) as a page does', async () => {
        const title = await repository.create(aNewArticle().with({ title: 'Blog TIPS' }).withTags('ts').build());
        await repository.create(aNewArticle().with({ content: 'nothing here' }).build());
        const content = await repository.create(aNewArticle().with({ content: '我的博客 tips' }).build());
        await repository.create(aNewArticle().invisible().with({ content: 'tips' }).build());

        const streamed = async (filter: Parameters<typeof repository.streamVisible>[0]) =>
          (await chunksOf(repository.streamVisible(filter))).flat();
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

    describe('the version of the data (visibleVersion, and what a whole stream returns)', () => {
      /** Reads a stream to its end; answers what it returned. */
      async function returnedBy(stream: AsyncGenerator<Article[], string | undefined>) {
        for (;;) {
          const next = await stream.next();
          if (next.done) return next.value;
        }
      }

      it('changes with every committed write: create, keyed create, update, hiding, delete', async () => {
        const versions = [await repository.visibleVersion()];
        const created = await repository.create(aNewArticle().withTags('t').build());
        versions.push(await repository.visibleVersion());
        await repository.createWithKey(aNewArticle().build(), {
          key: 'k',
          fingerprint: 'f',
          expiredUpTo: new Date(0),
        });
        versions.push(await repository.visibleVersion());
        await repository.update(created.id, someChanges().with({ title: 'changed' }).build());
        versions.push(await repository.visibleVersion());
        await repository.update(created.id, someChanges().with({ visible: false }).build());
        versions.push(await repository.visibleVersion());
        await repository.update(created.id, someChanges().replacingTags('other').build());
        versions.push(await repository.visibleVersion());
        await repository.delete(created.id);
        versions.push(await repository.visibleVersion());

        expect(new Set(versions).size).toBe(versions.length);
      });

      it('a stream returns a version its data is not older than: a write committed meanwhile leaves it behind', async () => {
        for (let n = 0; n < STREAM_CHUNK_SIZE + 1; n++) await repository.create(aNewArticle().build());
        const stream = repository.streamVisible({});
        await stream.next();
        await repository.create(aNewArticle().build());
        const returned = await returnedBy(stream);

        expect(returned).toEqual(expect.any(String));
        expect(await repository.visibleVersion()).not.toBe(returned);
      });

      it('a stream read while nothing is written returns the version of now', async () => {
        await repository.create(aNewArticle().withTags('t').build());
        // On PostgreSQL the version is the server's snapshot, which other databases' writes on
        // the same server move too (other test files run beside this one): a few tries find a
        // quiet moment. A version that is not the data's would never be equal.
        let equal = false;
        for (let attempt = 0; attempt < 50 && !equal; attempt++) {
          const before = await repository.visibleVersion();
          const returned = await returnedBy(repository.streamVisible({}));
          equal = returned === before && (await repository.visibleVersion()) === returned;
        }
        expect(equal).toBe(true);
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

    describe('creates under an Idempotency-Key', () => {
      const createdAt = new Date('2026-06-01T10:00:00.000Z');
      const DAY_MS = 24 * 3_600_000;
      const claim = (key: string, fingerprint = 'fingerprint-1', at = createdAt): IdempotencyClaim => ({
        key,
        fingerprint,
        expiredUpTo: new Date(at.getTime() - DAY_MS),
      });
      // Every article these tests create is visible.
      const allArticles = () => repository.listVisible({ limit: 1_000 });

      it.each([
        ['without references', () => aNewArticle().at(createdAt)],
        ['with new and existing names', () => aNewArticle().at(createdAt).withTags('new tag').withCategories('c')],
      ])('%s: creates once, then answers the stored article and writes nothing', async (_, body) => {
        await repository.create(aNewArticle().withCategories('c').build());
        const first = await repository.createWithKey(body().build(), claim('key-1'));
        const again = await repository.createWithKey(body().build(), claim('key-1'));

        expect(first.outcome).toBe('created');
        const created = (first as { article: Article }).article;
        expect(created).toMatchObject({ version: 1, createdAt, updatedAt: createdAt });
        expect(again).toEqual({ outcome: 'stored', fingerprint: 'fingerprint-1', article: created });
        await expect(repository.findById(created.id)).resolves.toEqual(created);
        expect(await allArticles()).toHaveLength(2);
      });

      it('answers the article as it was created, even after it changed or was deleted', async () => {
        const first = await repository.createWithKey(aNewArticle().at(createdAt).withTags('t').build(), claim('k'));
        const created = (first as { article: Article }).article;
        await repository.update(created.id, someChanges().with({ title: 'changed' }).replacingTags('u').build());
        await expect(repository.createWithKey(aNewArticle().build(), claim('k'))).resolves.toEqual({
          outcome: 'stored',
          fingerprint: 'fingerprint-1',
          article: created,
        });
        await repository.delete(created.id);
        await expect(repository.createWithKey(aNewArticle().build(), claim('k'))).resolves.toMatchObject({
          article: created,
        });
      });

      it('makes exactly one article of 20 concurrent creates under one key and one body', async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, () =>
            repository.createWithKey(aNewArticle().at(createdAt).withTags('shared').build(), claim('race')),
          ),
        );

        const created = outcomes.filter((outcome) => outcome.outcome === 'created');
        expect(created).toHaveLength(1);
        const article = (created[0] as { article: Article }).article;
        for (const outcome of outcomes) {
          if (outcome.outcome === 'in-progress') continue;
          expect(outcome).toEqual(
            outcome.outcome === 'created' ? created[0] : { outcome: 'stored', fingerprint: 'fingerprint-1', article },
          );
        }
        expect((await allArticles()).map((listed) => listed.id)).toEqual([article.id]);
        await expect(repository.listTerms('tag')).resolves.toEqual(article.tags);
      });

      it('keeps keys apart: another key creates another article', async () => {
        const one = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('a'));
        const other = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('A'));
        expect([one.outcome, other.outcome]).toEqual(['created', 'created']);
        expect(await allArticles()).toHaveLength(2);
      });

      it('answers the stored fingerprint to another request under the key, and writes nothing', async () => {
        await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('key'));
        const other = await repository.createWithKey(
          aNewArticle().at(createdAt).with({ title: 'other' }).withTags('never stored').build(),
          claim('key', 'fingerprint-2'),
        );

        expect(other).toMatchObject({ outcome: 'stored', fingerprint: 'fingerprint-1' });
        expect(await allArticles()).toHaveLength(1);
        await expect(repository.listTerms('tag')).resolves.toEqual([]);
      });

      it('stores no key when the create fails (unknown tag id), so that a retry creates once', async () => {
        const failing = aNewArticle().at(createdAt).withTags({ id: 'no-such-tag' }, 'named').build();
        await expect(repository.createWithKey(failing, claim('retry'))).rejects.toBeInstanceOf(UnknownReferenceError);
        expect(await allArticles()).toHaveLength(0);

        const retried = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('retry'));
        const again = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('retry'));
        expect([retried.outcome, again.outcome]).toEqual(['created', 'stored']);
        expect(await allArticles()).toHaveLength(1);
      });

      it('processes a key anew once its record is expired, even before it is purged', async () => {
        const first = await repository.createWithKey(aNewArticle().at(createdAt).build(), claim('old'));
        const justLive = new Date(createdAt.getTime() + DAY_MS - 1);
        const expiredAt = new Date(createdAt.getTime() + DAY_MS);

        await expect(
          repository.createWithKey(aNewArticle().at(justLive).build(), claim('old', 'fingerprint-2', justLive)),
        ).resolves.toMatchObject({ outcome: 'stored', fingerprint: 'fingerprint-1' });
        const anew = await repository.createWithKey(
          aNewArticle().at(expiredAt).build(),
          claim('old', 'fingerprint-2', expiredAt),
        );
        expect(anew.outcome).toBe('created');
        expect((anew as { article: Article }).article.id).not.toBe((first as { article: Article }).article.id);
        // The new record answers from now on.
        await expect(
          repository.createWithKey(aNewArticle().at(expiredAt).build(), claim('old', 'fingerprint-3', expiredAt)),
        ).resolves.toMatchObject({
          outcome: 'stored',
          fingerprint: 'fingerprint-2',
          article: { createdAt: expiredAt },
        });
      });

      it('purges expired records in bounded batches, oldest first, and keeps the live ones', async () => {
        const at = (hours: number) => new Date(createdAt.getTime() + hours * 3_600_000);
        for (const [index, hours] of [0, 1, 2, 3].entries()) {
          await repository.createWithKey(aNewArticle().at(at(hours)).build(), claim(`key ${index}`, 'f', at(hours)));
        }

        await expect(repository.deleteExpiredKeys(at(2), 2)).resolves.toBe(2);
        await expect(repository.deleteExpiredKeys(at(2), 2)).resolves.toBe(1);
        await expect(repository.deleteExpiredKeys(at(2), 2)).resolves.toBe(0);
        // Purged: processed anew even with a claim that would still count it live.
        const late = at(3);
        const live = { key: 'key 0', fingerprint: 'f', expiredUpTo: new Date(0) };
        await expect(repository.createWithKey(aNewArticle().at(late).build(), live)).resolves.toMatchObject({
          outcome: 'created',
        });
        await expect(
          repository.createWithKey(aNewArticle().at(late).build(), { ...live, key: 'key 3' }),
        ).resolves.toMatchObject({ outcome: 'stored' });
        // The articles stay: only the keys' records go.
        expect(await allArticles()).toHaveLength(5);
      });
    });
  });
}
