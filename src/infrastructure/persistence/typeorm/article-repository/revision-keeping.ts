import { allowsVersion, type ExpectedVersions, type WriteGuard } from '../../../../application';
import { type Article, ArticleChangedError } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import { type ArticleRow, articleWithTermsOf } from './article-rows';
import { storedArticleJson } from './stored-article-json';

/** The write that replaces an article: which one, when, and the versions it may replace (If-Match). */
export interface Replacement {
  readonly id: number;
  readonly at: Date;
  readonly expected?: ExpectedVersions;
  /** Whether the writer may: it throws, and nothing is written, when not. */
  readonly guard: WriteGuard;
}

/** A restore's: the use case asked for an editor, who may write every article. */
export const EVERY_WRITER: WriteGuard = () => {};

/**
 * Inside a write's transaction, first: the article as it is, read with its row locked until the
 * transaction ends (PostgreSQL; SQLite's BEGIN already excludes other writers). Null when no
 * article has the id; the guard's error when the writer may not; ArticleChangedError when it is
 * not at an expected version (after the guard, so that a 412 never tells of an article the writer
 * may not see). The caller keeps it as its next revision in the same transaction (keepRevision,
 * or the update's own statement), so that the write and its revision commit or roll back together.
 */
export async function readToReplace(
  connection: SqlConnection,
  sql: ArticleStatements,
  dialect: SqlDialect,
  { id, expected, guard }: Omit<Replacement, 'at'>,
): Promise<Article | null> {
  const [row] = await connection.query<ArticleRow>(sql.findArticleLocked, [id]);
  if (!row) return null;
  const before = articleWithTermsOf(row, dialect);
  guard(before);
  if (!allowsVersion(expected, before.version)) throw new ArticleChangedError(id);
  return before;
}

/** readToReplace, then the article kept as its next revision, replaced at `at`. */
export async function keepRevision(
  connection: SqlConnection,
  sql: ArticleStatements,
  dialect: SqlDialect,
  replacement: Replacement,
): Promise<Article | null> {
  const before = await readToReplace(connection, sql, dialect, replacement);
  if (!before) return null;
  await connection.query(sql.insertRevision, [
    replacement.id,
    dialect.encodeTimestamp(replacement.at),
    before.version,
    storedArticleJson(before),
  ]);
  return before;
}
