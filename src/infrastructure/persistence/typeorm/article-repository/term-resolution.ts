import {
  compareByCodePoint,
  isReferenceById,
  isReferenceByName,
  type Term,
  type TermKind,
  type TermReference,
  UnknownReferenceError,
} from '../../../../domain';
import { newTermId } from '../../term-id';
import { type ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import { TERM_KINDS } from '../sql-statement';
import { type TermRow, termOf } from './article-rows';
import { runInOrder } from './transaction';

/** The references of one write, per kind, in the order the request gave them. */
export type TermReferences = Record<TermKind, readonly TermReference[]>;

/** No term names to look up (findTerms by ids only). */
export const NO_NAMES: Record<TermKind, readonly string[]> = { tag: [], category: [] };

/**
 * Id references must exist; name references are found, or created when they do not exist
 * (only then is an id generated: a cuid2 costs about half a millisecond of CPU). Answers each
 * kind's terms once, in the order referenced. Runs inside the caller's write transaction.
 */
export async function resolveTerms(
  connection: SqlConnection,
  sql: ArticleStatements,
  references: TermReferences,
): Promise<Record<TermKind, Term[]>> {
  const { ids, names } = splitReferences(references);
  const found = await findTerms(connection, sql, ids, names);
  // Tags first: an unknown tag is reported before an unknown category.
  for (const kind of TERM_KINDS) {
    const missing = ids[kind].find((id) => !found.some((row) => row.kind === kind && row.id === id));
    if (missing !== undefined) throw new UnknownReferenceError(kind, missing);
  }
  const fresh = {
    tag: newTerms(references.tag, (name) => !isFound(found, 'tag', name)),
    category: newTerms(references.category, (name) => !isFound(found, 'category', name)),
  };
  if (fresh.tag.length + fresh.category.length > 0) {
    await runInOrder(connection, sql.insertTerms, [termRowsJson(fresh.tag), termRowsJson(fresh.category)]);
    // Read the names again: those a concurrent transaction inserted first have its ids.
    const none = { tag: [], category: [] };
    const created = await findTerms(connection, sql, none, {
      tag: fresh.tag.map((term) => term.name),
      category: fresh.category.map((term) => term.name),
    });
    found.push(...created);
  }
  return termsReferenced(found, references);
}

/**
 * The terms referenced, when every id and every name referenced exists (one find_terms); null
 * when one does not. Terms are never deleted or changed, so what it finds stays true after.
 */
export async function findKnownTerms(
  connection: SqlConnection,
  sql: ArticleStatements,
  references: TermReferences,
): Promise<Record<TermKind, Term[]> | null> {
  const { ids, names } = splitReferences(references);
  const found = await findTerms(connection, sql, ids, names);
  const everyOneFound = TERM_KINDS.every(
    (kind) =>
      ids[kind].every((id) => found.some((row) => row.kind === kind && row.id === id)) &&
      names[kind].every((name) => isFound(found, kind, name)),
  );
  return everyOneFound ? termsReferenced(found, references) : null;
}

/** Each kind's terms among `found`, once each, in the order referenced. */
export function termsReferenced(found: readonly TermRow[], references: TermReferences): Record<TermKind, Term[]> {
  const resolved: Record<TermKind, Term[]> = { tag: [], category: [] };
  for (const kind of TERM_KINDS) {
    const rows = found.filter((row) => row.kind === kind);
    const byId = new Map(rows.map((row) => [row.id, termOf(row)]));
    const byName = new Map(rows.map((row) => [row.name, termOf(row)]));
    const unique = new Map<string, Term>();
    for (const reference of references[kind]) {
      const term = isReferenceByName(reference) ? byName.get(reference.name) : byId.get(reference.id);
      if (term) unique.set(term.id, term);
    }
    resolved[kind] = [...unique.values()];
  }
  return resolved;
}

/** The ids and the names referenced, per kind. */
export function splitReferences(references: TermReferences) {
  return {
    ids: { tag: idsReferenced(references.tag), category: idsReferenced(references.category) },
    names: { tag: namesReferenced(references.tag), category: namesReferenced(references.category) },
  };
}

/** The terms with these ids or names, per kind (one find_terms statement). */
export function findTerms(
  connection: SqlConnection,
  sql: ArticleStatements,
  ids: Record<TermKind, readonly string[]>,
  names: Record<TermKind, readonly string[]>,
): Promise<TermRow[]> {
  return connection.query<TermRow>(sql.findTerms, findTermsValues(ids, names));
}

/** The values of find_terms: tags' ids and names, then categories'. */
export function findTermsValues(ids: Record<TermKind, readonly string[]>, names: Record<TermKind, readonly string[]>) {
  return TERM_KINDS.flatMap((kind) => [JSON.stringify(ids[kind]), JSON.stringify(names[kind])]);
}

function isFound(found: readonly TermRow[], kind: TermKind, name: string): boolean {
  return found.some((row) => row.kind === kind && row.name === name);
}

function idsReferenced(references: readonly TermReference[]): string[] {
  return references.filter(isReferenceById).map((reference) => reference.id);
}

function namesReferenced(references: readonly TermReference[]): string[] {
  return references.filter(isReferenceByName).map((reference) => reference.name);
}

/** New terms for the names that `isNew`; sorted, so that concurrent inserts lock in one order. */
function newTerms(references: readonly TermReference[], isNew: (name: string) => boolean): Term[] {
  return references
    .filter(isReferenceByName)
    .filter((reference) => isNew(reference.name))
    .map(({ name, description }) => ({ id: newTermId(), name, description }))
    .sort((a, b) => compareByCodePoint(a.name, b.name));
}

const termRowsJson = (terms: readonly Term[]) =>
  JSON.stringify(terms.map((term) => [term.id, term.name, term.description]));
