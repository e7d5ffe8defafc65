import type { Article } from '../../../src/domain';

/** The names of an article's tags (or categories), in the order the repository answered them. */
export const termNames = (article: Article | null, kind: 'tags' | 'categories' = 'tags') =>
  article?.[kind].map((term) => term.name);
