import type { SqlDialect } from './sql-dialect';

/**
 * The values of an article's insert, $1 to $ARTICLE_VALUES (insertArticleValues): title,
 * description, content, visible (kept for instances of the previous release, see the publishing
 * migration), created_at (also the first updated_at), the folded copies of title, description and
 * content, published_at, featured, slug, author_id. Statements that insert an article number their own
 * parameters after these.
 */
export const ARTICLE_VALUES = 12;

/** The columns of an article's insert, in the order of articleInsertValues. */
export const ARTICLE_INSERT_COLUMNS = `title, description, content, visible, created_at, updated_at, version,
  search_title, search_description, search_content, published_at, featured, slug, author_id`;

/**
 * The values of an article's insert from parameters $1..$ARTICLE_VALUES; `typed` casts each
 * (PostgreSQL cannot infer a parameter's type in a SELECT list).
 */
export function articleInsertValues(d: SqlDialect, typed: boolean): string {
  const types = [
    'varchar',
    'varchar',
    'text',
    'boolean',
    'timestamptz',
    'text',
    'text',
    'text',
    'timestamptz',
    'boolean',
    'varchar',
    'text',
  ];
  const v = (n: number) => (typed ? `CAST(${d.param(n)} AS ${types[n - 1]})` : d.param(n));
  return `${v(1)}, ${v(2)}, ${v(3)}, ${v(4)}, ${v(5)}, ${v(5)}, 1, ${v(6)}, ${v(7)}, ${v(8)}, ${v(9)}, ${v(10)}, ${v(11)}, ${v(12)}`;
}
