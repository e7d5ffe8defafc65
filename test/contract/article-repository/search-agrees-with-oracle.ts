import fc from 'fast-check';
import type { ArticleRepository, VisibleArticlesFilter } from '../../../src/application';
import { type Article, codePointLength, foldForSearch, unstorableTextReason } from '../../../src/domain';
import { aNewArticle, READ_MOMENT } from '../../support/builders';
import { propertySeed } from '../../support/property-seed';
import type { ContractSubject, OpenContractSubject } from './subject';

/** The same cases on every run; PROPERTY_SEED replays another (a failure prints its seed). */
const SEED = propertySeed(26);
const RUNS = 100;

/**
 * Characters the storages' matching could treat differently from JavaScript's: combining
 * marks, letters whose toLowerCase depends on their neighbours or changes their length (Σ, İ),
 * astral letters with case, and the pattern and quoting characters of LIKE, GLOB and FTS5.
 */
const TRICKY = [...'\u0301\u0307\u0345ΣσςİıIißẞ\u212AkKåÅǅǆﬀ"\'%_\\*?[] aAb', '𐐀', '𐐨', '🦀', '𝔄'];

/** Told apart by every storage but FTS5's trigram tokenizer, which reads the last two as the first. */
const REPLACEMENT_CHARACTERS = ['\uFFFD', '\uFFFE', '\uFFFF'];

const character = fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY), weight: 6 },
  { arbitrary: fc.constantFrom(...REPLACEMENT_CHARACTERS), weight: 3 },
  // Any code point (mostly astral), and user-perceived characters of several code points.
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 1 },
  // A long run of one character: trigrams repeat within it.
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...TRICKY, ...REPLACEMENT_CHARACTERS), fc.integer({ min: 3, max: 20 }))
      .map(([c, n]) => c.repeat(n)),
    weight: 1,
  },
);

/** Storable text only (the domain's rules): NUL is dropped; every unit above is well-formed. */
const text = (minLength: number) =>
  fc
    .string({ unit: character, minLength, maxLength: 8 })
    .map((raw) => raw.replaceAll('\u0000', ''))
    .filter((value) => value.length >= minLength && unstorableTextReason(value) === null);

const TAGS = ['t1', 't2'];
const CATEGORIES = ['c1', 'c2'];

interface ArticleData {
  title: string | null;
  description: string;
  content: string;
  visible: boolean;
  tags: string[];
  categories: string[];
}

const articleData: fc.Arbitrary<ArticleData> = fc.record({
  title: fc.option(text(0), { nil: null }),
  description: text(0),
  content: text(1),
  visible: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
  tags: fc.subarray(TAGS),
  categories: fc.subarray(CATEGORIES),
});

/** U+FFFD, U+FFFE and U+FFFF each turned into the next: what FTS5 alone cannot tell apart. */
const rotateReplacementCharacters = (value: string) =>
  value.replace(/[\uFFFD-\uFFFF]/g, (c) => String.fromCharCode(0xfffd + ((c.charCodeAt(0) - 0xfffd + 1) % 3)));

/**
 * A query as a caller sends it: random text, or a piece of one of the articles' fields (picked
 * by numbers, so that a failure shrinks well), as it is or changed a little.
 */
type RawQuery =
  | { text: string }
  | { field: number; start: number; length: number; change: 'as is' | 'upper' | 'rotated' | 'padded' };

const rawQuery: fc.Arbitrary<RawQuery> = fc.oneof(
  {
    arbitrary: fc.record({
      field: fc.nat(),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 12 }),
      change: fc.constantFrom('as is', 'upper', 'rotated', 'rotated', 'padded'),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      text: text(1).filter((q) => codePointLength(q.trim()) >= 1 && codePointLength(q.trim()) <= 100),
    }),
    weight: 1,
  },
);

/** The query `raw` stands for among these articles' fields (a piece may be empty, or blank). */
function queryOf(raw: RawQuery, articles: readonly ArticleData[]): string {
  if ('text' in raw) return raw.text;
  const fields = articles.flatMap((article) => [article.title ?? '', article.description, article.content]);
  const points = [...(fields[raw.field % Math.max(fields.length, 1)] ?? '')];
  const start = raw.start % Math.max(points.length, 1);
  const piece = points.slice(start, start + raw.length).join('');
  if (raw.change === 'upper') return piece.toUpperCase();
  if (raw.change === 'rotated') return rotateReplacementCharacters(piece);
  if (raw.change === 'padded') return ` ${piece}\t`;
  return piece;
}

interface Search {
  q: RawQuery;
  tagName: string | undefined;
  categoryName: string | undefined;
  /** Which created article's id the list starts after (an index, modulo their number), or none. */
  after: number | null;
  limits: number[];
}

const search: fc.Arbitrary<Search> = fc.record({
  q: rawQuery,
  tagName: fc.constantFrom(undefined, ...TAGS, 'none'),
  categoryName: fc.constantFrom(undefined, ...CATEGORIES, 'none'),
  after: fc.option(fc.nat(), { nil: null, freq: 3 }),
  limits: fc.subarray([1, 2, 3, 100], { minLength: 1 }),
});

/** What the oracle is asked: the query as sent (untrimmed) and the filters. */
interface Question {
  q: string;
  afterId: number;
  tagName: string | undefined;
  categoryName: string | undefined;
}

/**
 * The plain answer: the visible articles after `afterId`, with the tag and category, whose folded
 * title, description or content (each on its own) contains the folded, trimmed query; by id.
 */
function oracle(stored: readonly (ArticleData & { id: number })[], question: Question): number[] {
  const query = foldForSearch(question.q.trim());
  return stored
    .filter((article) => article.visible && article.id > question.afterId)
    .filter((article) => question.tagName === undefined || article.tags.includes(question.tagName))
    .filter((article) => question.categoryName === undefined || article.categories.includes(question.categoryName))
    .filter((article) =>
      [article.title, article.description, article.content].some(
        (field) => field !== null && foldForSearch(field).includes(query),
      ),
    )
    .map((article) => article.id)
    .sort((a, b) => a - b);
}

/** `U+0301 U+FFFE …`: invisible and look-alike characters, readable in a failure. */
const codePointsOf = (value: string) =>
  [...value].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

const ids = (articles: readonly Article[]) => articles.map((article) => article.id);

async function streamedIds(repository: ArticleRepository, filter: VisibleArticlesFilter): Promise<number[]> {
  const found: number[] = [];
  for await (const chunk of repository.streamVisible(filter)) found.push(...ids(chunk));
  return found;
}

/** Every page of `limit` in turn, each after the last id of the one before. */
async function pagedIds(
  repository: ArticleRepository,
  filter: VisibleArticlesFilter,
  limit: number,
): Promise<number[]> {
  const found: number[] = [];
  let afterId = filter.afterId;
  for (;;) {
    const page = ids(await repository.listVisible({ ...filter, afterId, limit }));
    found.push(...page);
    if (page.length < limit) return found;
    afterId = page[page.length - 1];
  }
}

/**
 * Search on random text from all of Unicode: every page walk and the whole-list stream answer
 * exactly what a plain toLowerCase().includes() over the articles answers.
 */
export function searchAgreesWithOracleContract(open: OpenContractSubject): void {
  describe('search agrees with a plain oracle (property)', () => {
    let subject: ContractSubject;
    beforeAll(async () => {
      subject = await open();
    });
    afterAll(() => subject.close());

    it(`answers, paged and streamed, what the oracle answers (seed ${SEED}, PROPERTY_SEED replays another)`, async () => {
      const articlesAndSearches = fc.tuple(
        fc.array(articleData, { maxLength: 8 }),
        fc.array(search, { minLength: 1, maxLength: 3 }),
      );
      await fc.assert(
        fc.asyncProperty(articlesAndSearches, async ([articles, searches]) => {
          await subject.reset();
          const repository = subject.repository;
          const stored: (ArticleData & { id: number })[] = [];
          for (const data of articles) {
            const { tags, categories, visible, ...fields } = data;
            const article = aNewArticle()
              .with(fields)
              .withTags(...tags)
              .withCategories(...categories);
            if (!visible) article.invisible();
            stored.push({ ...data, id: (await repository.create(article.build())).id });
          }
          for (const wanted of searches) {
            const q = queryOf(wanted.q, articles);
            // A piece that is blank, or too long, is no query the service would pass on.
            const length = codePointLength(q.trim());
            if (length < 1 || length > 100) continue;
            const after = wanted.after === null ? undefined : stored[wanted.after % Math.max(stored.length, 1)];
            const question = { q, afterId: after?.id ?? 0, tagName: wanted.tagName, categoryName: wanted.categoryName };
            const filter: VisibleArticlesFilter = {
              moment: READ_MOMENT,
              afterId: question.afterId,
              tagName: question.tagName,
              categoryName: question.categoryName,
              foldedQuery: foldForSearch(q.trim()),
            };
            // The query's code points are in each answer compared, so that a failure shows them.
            const expected = { q: codePointsOf(q), ids: oracle(stored, question) };
            expect({ q: codePointsOf(q), ids: await streamedIds(repository, filter) }).toEqual(expected);
            for (const limit of wanted.limits) {
              const paged = await pagedIds(repository, filter, limit);
              expect({ q: codePointsOf(q), limit, ids: paged }).toEqual({ ...expected, limit });
            }
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }, 120_000);
  });
}
