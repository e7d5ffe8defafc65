import { call } from './http-client';

/** The data every scenario runs on, prepared through the API like a client would. */
export const DATASET = {
  articles: 1_000,
  tags: 30,
  categories: 10,
  tagsPerArticle: 3,
  categoriesPerArticle: 2,
  /** Every tenth article is invisible: 90 % are visible. */
  invisibleEvery: 10,
} as const;

/**
 * Words of the large seeded datasets (seed-at-size.ts) for search pages: `rare` is in the
 * content of under 0.1 % of the articles, `common` in about 60 %; the filler has neither.
 */
export const SEARCH_WORDS = { rare: 'quokka', common: 'kettle' } as const;
export const SEARCH_SHARES = { rareEvery: 1_250, commonTenths: 6 } as const;

export const tagName = (n: number) => `tag-${String(n).padStart(2, '0')}`;
export const categoryName = (n: number) => `category-${n}`;

export interface PreparedDataset {
  ids: number[];
  lastId: number;
  visible: number;
  /** The ids of the published articles (a draft is null to a reader without a token); prepareDataset's. */
  visibleIds?: number[];
  /** The id of tag `tagName(n)` at index n, of category `categoryName(n)` at index n (prepareDataset's). */
  tagIds?: string[];
  categoryIds?: string[];
}

const CONCURRENT_WRITES = 8;
const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.';

/** A small deterministic generator, so every run prepares the same articles. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function pick(random: () => number, count: number, from: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(random() * from));
  return [...chosen];
}

/** The create bodies of the dataset, in order. */
export function datasetBodies(): object[] {
  const random = seededRandom(42);
  return Array.from({ length: DATASET.articles }, (_, index) => ({
    title: `Article ${index + 1}`,
    description: `About article ${index + 1}`,
    content: `${FILLER} ${FILLER}`,
    visible: (index + 1) % DATASET.invisibleEvery !== 0,
    tag: pick(random, DATASET.tagsPerArticle, DATASET.tags).map((n) => ({ name: tagName(n), description: `Tag ${n}` })),
    category: pick(random, DATASET.categoriesPerArticle, DATASET.categories).map((n) => ({ name: categoryName(n) })),
  }));
}

/** Creates the dataset through POST /article/create, a few requests at a time. */
export async function prepareDataset(baseUrl: string): Promise<PreparedDataset> {
  const ids = await createAll(baseUrl, datasetBodies());
  const visibleIds = (await call<{ id: number }[]>(baseUrl, 'GET', '/article')).map((article) => article.id);
  const tagIds = await termIds(baseUrl, '/tag', DATASET.tags, tagName);
  const categoryIds = await termIds(baseUrl, '/category', DATASET.categories, categoryName);
  return { ids, lastId: ids[ids.length - 1] as number, visible: visibleIds.length, visibleIds, tagIds, categoryIds };
}

/** Sends each body to POST /article/create, CONCURRENT_WRITES at a time; the new ids, ascending. */
export async function createAll(baseUrl: string, bodies: readonly object[]): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  const writer = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      ids.push((await call<{ id: number }>(baseUrl, 'POST', '/article/create', body)).id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_WRITES }, writer));
  return ids.sort((a, b) => a - b);
}

/** The ids of the terms named `nameOf(0)`, `nameOf(1)`, … in that order. */
async function termIds(baseUrl: string, path: string, count: number, nameOf: (n: number) => string): Promise<string[]> {
  const terms = await call<{ id: string; name: string }[]>(baseUrl, 'GET', path);
  return Array.from({ length: count }, (_, n) => {
    const term = terms.find((candidate) => candidate.name === nameOf(n));
    if (!term) throw new Error(`the dataset has no ${nameOf(n)}`);
    return term.id;
  });
}
