import type { Article, Term, TermKind } from '../../../../domain';
import type { SqlDialect } from '../sql-dialect';
import { TERM_KINDS } from '../sql-statement';
import { articleOf, type StreamRow, type TermRow, termOf } from './article-rows';

/** The terms a stream has read, by id: terms never change once created, so they can be reused. */
export type KnownTerms = Record<TermKind, Map<string, Term>>;

/** Looks up the terms with these ids (find_terms by ids only). */
export type TermLookup = (ids: Record<TermKind, string[]>) => Promise<TermRow[]>;

/** A stream keeps at most about this many terms (a few MB). */
const KNOWN_TERMS_LIMIT = 10_000;

export function noKnownTerms(): KnownTerms {
  return { tag: new Map(), category: new Map() };
}

/**
 * The chunk's articles with their terms: those this stream has met already, and the others
 * read with one lookup. The terms kept are bounded: past KNOWN_TERMS_LIMIT they are dropped
 * and read again as needed.
 */
export async function articlesWithKnownTerms(
  rows: readonly StreamRow[],
  known: KnownTerms,
  dialect: SqlDialect,
  lookup: TermLookup,
): Promise<Article[]> {
  if (known.tag.size + known.category.size > KNOWN_TERMS_LIMIT) {
    known.tag.clear();
    known.category.clear();
  }
  const linked = rows.map((row) => ({
    tag: dialect.decodeJson<string[] | null>(row.tagIds) ?? [],
    category: dialect.decodeJson<string[] | null>(row.categoryIds) ?? [],
  }));
  const missing: Record<TermKind, Set<string>> = { tag: new Set(), category: new Set() };
  for (const ids of linked) {
    for (const kind of TERM_KINDS) for (const id of ids[kind]) if (!known[kind].has(id)) missing[kind].add(id);
  }
  if (missing.tag.size + missing.category.size > 0) {
    for (const row of await lookup({ tag: [...missing.tag], category: [...missing.category] })) {
      known[row.kind].set(row.id, termOf(row));
    }
  }
  const termsOf = (kind: TermKind, ids: readonly string[]) =>
    ids.map((id) => known[kind].get(id)).filter((term): term is Term => term !== undefined);
  return rows.map((row, index) => {
    const ids = linked[index] as Record<TermKind, string[]>;
    return articleOf(row, termsOf('tag', ids.tag), termsOf('category', ids.category));
  });
}
