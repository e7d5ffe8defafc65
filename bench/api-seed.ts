import { categoryName, DATASET, type PreparedDataset, tagName } from './dataset';
import { call } from './http-client';

/**
 * A dataset created through `POST /article/create`, as clients would build it, at any size
 * (issue 18, "pages measured from outside"): each article with 3 of the 30 tags and 2 of the
 * 10 categories by name, which ones a hash of its number, 1 in 10 invisible. Tag k is drawn
 * from third k of the pool and category k from half k (as bench/seed-at-size.ts does in SQL),
 * so every tag is on about 10 % of the articles, spread over the whole id range.
 */
export interface ApiSeededDataset extends PreparedDataset {
  seconds: number;
}

/** Concurrent writers: enough to keep two cores busy without queueing for the pool. */
const WRITERS = 16;
const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.';

/** 0..65535 from an article number and a draw: the high bits of a multiplicative hash, one multiplier per draw. */
const mix = (n: number, draw: number) => Math.imul(n, 2_654_435_761 + draw * 2_246_822_518) >>> 16;

/** The create body of article number n (1-based). */
export function apiSeedBody(n: number): object {
  const tagsPerThird = DATASET.tags / DATASET.tagsPerArticle;
  const categoriesPerHalf = DATASET.categories / DATASET.categoriesPerArticle;
  return {
    title: `Article ${n}`,
    description: `About article ${n}`,
    content: `${FILLER} ${FILLER}`,
    visible: n % DATASET.invisibleEvery !== 0,
    tag: Array.from({ length: DATASET.tagsPerArticle }, (_, k) => {
      const tag = k * tagsPerThird + (mix(n, k) % tagsPerThird);
      return { name: tagName(tag), description: `Tag ${tag}` };
    }),
    category: Array.from({ length: DATASET.categoriesPerArticle }, (_, k) => ({
      name: categoryName(k * categoriesPerHalf + (mix(n, DATASET.tagsPerArticle + k) % categoriesPerHalf)),
    })),
  };
}

/** Creates `count` articles through the API, WRITERS requests at a time; answers their ids. */
export async function seedThroughApi(
  baseUrl: string,
  count: number,
  progress: (done: number) => void = () => {},
): Promise<ApiSeededDataset> {
  const started = process.hrtime.bigint();
  const ids: number[] = [];
  let next = 1;
  let visible = 0;
  const writer = async () => {
    while (next <= count) {
      const n = next++;
      const body = apiSeedBody(n) as { visible: boolean };
      ids.push((await call<{ id: number }>(baseUrl, 'POST', '/article/create', body)).id);
      if (body.visible) visible++;
      if (ids.length % 10_000 === 0) progress(ids.length);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  ids.sort((a, b) => a - b);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { ids, lastId: ids[ids.length - 1] as number, visible, seconds };
}
