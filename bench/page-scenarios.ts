import { DATASET, type PreparedDataset, SEARCH_WORDS, tagName } from './dataset';
import type { Scenario } from './scenarios';

/** Articles per page in the page scenarios. */
export const PAGE_SIZE = 20;

/**
 * Where a page starts: a random id (at least 1: `after` is an article id), far enough from the end that a page filtered by one tag
 * (about 1 article in 10) is still full. Deep pages cost as much as the first one when the
 * plan walks an index from `after`; that is what the 1,000 vs 100,000 comparison checks.
 */
const randomAfter = (dataset: PreparedDataset) =>
  1 + Math.floor(Math.random() * Math.max(1, dataset.lastId - 40 * PAGE_SIZE));
const randomTag = () => tagName(Math.floor(Math.random() * DATASET.tags));

/** A page answer is the success wrapper around 1..PAGE_SIZE articles in ascending id order. */
export function isPage(body: string): boolean {
  if (!body.startsWith('{"statusCode":10000,')) return false;
  const { data } = JSON.parse(body) as { data: unknown };
  if (!Array.isArray(data) || data.length === 0 || data.length > PAGE_SIZE) return false;
  return data.every(
    (article: { id: number }, index) => index === 0 || article.id > (data[index - 1] as { id: number }).id,
  );
}

/**
 * A search answer: the success wrapper around 0..PAGE_SIZE articles in ascending id order, each
 * containing `word` (a rare word has fewer than a page after most positions).
 */
function isSearchPage(word: string) {
  return (body: string): boolean => {
    if (!body.startsWith('{"statusCode":10000,')) return false;
    const { data } = JSON.parse(body) as { data: unknown };
    if (!Array.isArray(data) || data.length > PAGE_SIZE) return false;
    return data.every(
      (article: { id: number; content: string }, index) =>
        article.content.toLowerCase().includes(word) &&
        (index === 0 || article.id > (data[index - 1] as { id: number }).id),
    );
  };
}

/** A search page of 20 at a random position (issue 18: each within 3× of a plain page at 100,000). */
const searchScenario = (key: string, word: string): Scenario => ({
  key,
  title: `GET /article?limit=${PAGE_SIZE}&after=…&q=${word}`,
  target: 1 / 1.5,
  addsArticles: false,
  verifyBody: isSearchPage(word),
  requests: (dataset) => [
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        path: `/article?limit=${PAGE_SIZE}&after=${randomAfter(dataset)}&q=${word.toUpperCase()}`,
      }),
    },
  ],
});

/** Search pages whose throughput is compared with the plain page's, same run, at 100,000. */
export const SEARCH_SCENARIO_KEYS = ['page-search-rare', 'page-search-common'];

/**
 * `GET /article?limit=20&after=…`, the same filtered by one tag (issue 13), and search pages
 * for a rare and a common word (issue 18).
 */
export const PAGE_SCENARIOS: Scenario[] = [
  {
    key: 'page',
    title: `GET /article?limit=${PAGE_SIZE}&after=…`,
    target: 1 / 1.5,
    addsArticles: false,
    verifyBody: isPage,
    requests: (dataset) => [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: `/article?limit=${PAGE_SIZE}&after=${randomAfter(dataset)}` }),
      },
    ],
  },
  {
    key: 'page-tag',
    title: `GET /article?limit=${PAGE_SIZE}&after=…&tag=…`,
    target: 1 / 1.5,
    addsArticles: false,
    verifyBody: isPage,
    requests: (dataset) => [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: `/article?limit=${PAGE_SIZE}&after=${randomAfter(dataset)}&tag=${randomTag()}`,
        }),
      },
    ],
  },
  searchScenario('page-search-rare', SEARCH_WORDS.rare),
  searchScenario('page-search-common', SEARCH_WORDS.common),
];

/** Positions a spread run visits, evenly over the id range (issue 18). */
export const SPREAD_POSITIONS = 200;
/** Concurrent clients of a spread run (issue 18). */
export const SPREAD_CLIENTS = 8;

/**
 * SPREAD_POSITIONS `after` values evenly spread over the dataset's ids (short of the last 40
 * pages, so that a tag page is full), each with a tag of its own by a hash: the same positions
 * in every run, visited in turn by all clients, so two runs read the same pages.
 */
function spreadPositions(dataset: PreparedDataset): { after: number; tag: string }[] {
  const usable = Math.max(1, dataset.ids.length - 40 * PAGE_SIZE);
  return Array.from({ length: SPREAD_POSITIONS }, (_, index) => ({
    after: dataset.ids[Math.floor((index * usable) / SPREAD_POSITIONS)] as number,
    tag: tagName((Math.imul(index + 1, 2_654_435_761) >>> 16) % DATASET.tags),
  }));
}

/** A scenario that asks for the spread positions in turn, plain or filtered by the position's tag. */
function spreadScenario(key: string, withTag: boolean): Scenario {
  return {
    key,
    title: `spread GET /article?limit=${PAGE_SIZE}&after=…${withTag ? '&tag=…' : ''}`,
    target: 1 / 1.5,
    addsArticles: false,
    verifyBody: isPage,
    requests: (dataset) => {
      const positions = spreadPositions(dataset);
      let next = 0;
      return [
        {
          method: 'GET',
          setupRequest: (request) => {
            const { after, tag } = positions[next++ % positions.length] as { after: number; tag: string };
            return { ...request, path: `/article?limit=${PAGE_SIZE}&after=${after}${withTag ? `&tag=${tag}` : ''}` };
          },
        },
      ];
    },
  };
}

/** Pages at spread positions, on datasets created through the API (issue 18). */
export const SPREAD_SCENARIOS: Scenario[] = [spreadScenario('spread-page', false), spreadScenario('spread-tag', true)];
