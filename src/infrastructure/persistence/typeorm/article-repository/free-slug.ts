import type { NewArticle } from '../../../../application';
import { SlugTakenError, StorageUnavailableError, slugCandidates } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import { isSlugConflict } from '../storage-errors';

/**
 * Tries of one create whose slug another create keeps taking first: each try stores a slug or
 * loses it to a create that committed it, so N creates of one title racing need up to N tries.
 * Past this, the client gets a 503 and may retry (nothing was written).
 */
const MAX_SLUG_TRIES = 25;

/** Candidate slugs looked up in one statement. */
const CANDIDATES_PER_READ = 50;

/**
 * Runs a create (`create`, an atomic write that fails with the slug's unique violation and
 * writes nothing when another current article has the slug) with the slug it asks for. A slug
 * the client gave is SlugTakenError when taken. A slug made from the title is tried as it is
 * first (most titles are new: one statement); when taken, the smallest free candidate of that
 * base (slugCandidates) is looked up and tried, again after each lost race, so that concurrent
 * creates of one title end with one slug each, decided by the unique index on every storage.
 */
export async function createWithFreeSlug<T>(
  connection: SqlConnection,
  sql: ArticleStatements,
  article: NewArticle,
  create: (article: NewArticle) => Promise<T>,
): Promise<T> {
  let attempt = article;
  for (let tries = 1; ; tries++) {
    try {
      return await create(attempt);
    } catch (error) {
      if (!isSlugConflict(error)) throw error;
      if (article.slug.given) throw new SlugTakenError(article.slug.slug);
      if (tries === MAX_SLUG_TRIES) throw new StorageUnavailableError({ cause: error });
    }
    attempt = { ...article, slug: { slug: await smallestFreeSlug(connection, sql, article.slug.slug), given: false } };
  }
}

/**
 * The first candidate of `base` that no current article has, read by exact slugs: a suffix cuts
 * a long base shorter, so the candidates need not share a prefix.
 */
async function smallestFreeSlug(connection: SqlConnection, sql: ArticleStatements, base: string): Promise<string> {
  for (let from = 1; ; from += CANDIDATES_PER_READ) {
    const candidates = slugCandidates(base, from, CANDIDATES_PER_READ);
    const rows = await connection.query<{ slug: string }>(sql.slugsTakenAmong, [JSON.stringify(candidates)]);
    const taken = new Set(rows.map((row) => row.slug));
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (free !== undefined) return free;
  }
}
