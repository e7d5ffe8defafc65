import type { ArticleFields } from './article';

/**
 * The one definition of "case-insensitive" for search: JavaScript's `toLowerCase()`, which is
 * locale-independent and covers all of Unicode. Databases fold differently (PostgreSQL's
 * `lower()` follows the server's locale, SQLite's folds ASCII only), so every storage keeps a
 * copy of the searchable text folded by this function and matches a query folded by it too.
 */
export function foldForSearch(text: string): string {
  return text.toLowerCase();
}

/**
 * The folded copies of an article's searchable fields, one per field (a match never spans two
 * fields). `title` is null when the article has none; absent fields stay absent, for updates.
 */
export interface SearchableText {
  readonly title?: string | null;
  readonly description?: string;
  readonly content?: string;
}

export function searchableTextOf(fields: Partial<ArticleFields>): SearchableText {
  const folded: { title?: string | null; description?: string; content?: string } = {};
  if (fields.title !== undefined) folded.title = fields.title === null ? null : foldForSearch(fields.title);
  if (fields.description !== undefined) folded.description = foldForSearch(fields.description);
  if (fields.content !== undefined) folded.content = foldForSearch(fields.content);
  return folded;
}

/** Whether folded text contains the folded query, every character literal. */
export function containsFolded(folded: SearchableText, foldedQuery: string): boolean {
  return [folded.title, folded.description, folded.content].some(
    (text) => typeof text === 'string' && text.includes(foldedQuery),
  );
}
