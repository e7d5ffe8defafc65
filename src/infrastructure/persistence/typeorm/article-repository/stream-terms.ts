import { type Article, type Author, compareTermsByName, type Term, type TermKind } from '../../../../domain';
import type { SqlDialect } from '../sql-dialect';
import { articleOf, authorOfRow, type StreamRow, type TermRow, termOf } from './article-rows';

/**
 * The terms a stream has read, by id (terms never change once created, so they can be reused),
 * and the authors its articles name, by id (one snapshot: an id is one author throughout).
 */
export type KnownToStream = Record<TermKind, Map<string, Term>> & { authors: Map<string, Author> };

/** Looks up the terms with these ids (find_terms by ids only). */
export type TermLookup = (ids: Record<TermKind, string[]>) => Promise<TermRow[]>;

/** A stream keeps at most about this many terms and authors (a few MB). */
const KNOWN_TERMS_LIMIT = 10_000;

export function nothingKnownToStream(): KnownToStream {
  return { tag: new Map(), category: new Map(), authors: new Map() };
}

/**
 * The chunk's articles with their terms: those this stream has met already, and the others
 * read with one lookup. The terms kept are bounded: past KNOWN_TERMS_LIMIT they are dropped
 * and read again as needed.
 */
export async function articlesWithKnownTerms(
  rows: readonly StreamRow[],
  known: KnownToStream,
  dialect: SqlDialect,
  lookup: TermLookup,
): Promise<Article[]> {
  if (known.tag.size + known.category.size + known.authors.size > KNOWN_TERMS_LIMIT) {
    known.tag.clear();
    known.category.clear();
    known.authors.clear();
  }
  // Plain loops, no intermediate arrays: the whole list runs this for every article, and its
  // garbage is collected while chunks are in flight (docs/PERFORMANCE.md, "At 100,000 articles").
  const tagIds: string[][] = new Array(rows.length);
  const categoryIds: string[][] = new Array(rows.length);
  const missing: Record<TermKind, Set<string>> = { tag: new Set(), category: new Set() };
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as StreamRow;
    const tags = dialect.decodeJson<string[] | null>(row.tagIds) ?? NONE;
    const categories = dialect.decodeJson<string[] | null>(row.categoryIds) ?? NONE;
    tagIds[index] = tags;
    categoryIds[index] = categories;
    for (const id of tags) if (!known.tag.has(id)) missing.tag.add(id);
    for (const id of categories) if (!known.category.has(id)) missing.category.add(id);
  }
  if (missing.tag.size + missing.category.size > 0) {
    for (const row of await lookup({ tag: [...missing.tag], category: [...missing.category] })) {
      known[row.kind].set(row.id, termOf(row));
    }
  }
  const articles: Article[] = new Array(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as StreamRow;
    articles[index] = articleOf(
      row,
      termsOf(known.tag, tagIds[index] as string[]),
      termsOf(known.category, categoryIds[index] as string[]),
      sharedAuthor(known.authors, row.author),
    );
  }
  return articles;
}

const NONE: string[] = [];

/**
 * One object per author in a stream, so that the presenter writes an author's JSON text once
 * (it keeps the text per object): a row's author is a new object each time.
 */
function sharedAuthor(known: Map<string, Author>, column: unknown): Author | null {
  const author = authorOfRow(column);
  if (author === null) return null;
  const met = known.get(author.id);
  if (met !== undefined) return met;
  known.set(author.id, author);
  return author;
}

/**
 * The known terms of these ids, by name (the stream reads ids in any order); an id no longer
 * known (a term deleted since) is left out.
 */
function termsOf(known: Map<string, Term>, ids: readonly string[]): Term[] {
  // Sized at once: an array grown by push starts with room for 17.
  const terms: Term[] = new Array(ids.length);
  let count = 0;
  for (const id of ids) {
    const term = known.get(id);
    if (term !== undefined) terms[count++] = term;
  }
  if (count < ids.length) terms.length = count;
  sortByNameInPlace(terms);
  return terms;
}

/**
 * By insertion: an article has a few terms (50 at most), and Array.prototype.sort allocated
 * about 800 bytes a call, 150 MB per whole list of 100,000 articles.
 */
function sortByNameInPlace(terms: Term[]): void {
  for (let index = 1; index < terms.length; index++) {
    const term = terms[index] as Term;
    let before = index - 1;
    for (; before >= 0 && compareTermsByName(terms[before] as Term, term) > 0; before--)
      terms[before + 1] = terms[before] as Term;
    terms[before + 1] = term;
  }
}
