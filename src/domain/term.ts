import { ValidationError } from './errors';
import { checkStorableText, codePointLength, compareByCodePoint } from './text';

/** Tags and categories have the same shape and rules; `TermKind` tells them apart. */
export type TermKind = 'tag' | 'category';

export interface Term {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}
export type Tag = Term;
export type Category = Term;

export const TERM_RULES = {
  /** Generated ids are 24 characters; anything much longer cannot name a term. */
  idMaxLength: 64,
  nameMaxLength: 64,
  descriptionMaxLength: 1000,
  maxReferencesPerArticle: 50,
} as const;

/** How a create or update body points at a tag or category. */
export type TermReferenceById = { readonly id: string };
export type TermReferenceByName = { readonly name: string; readonly description: string | null };
export type TermReference = TermReferenceById | TermReferenceByName;

export function isReferenceById(reference: TermReference): reference is TermReferenceById {
  return 'id' in reference;
}

export function isReferenceByName(reference: TermReference): reference is TermReferenceByName {
  return 'name' in reference;
}

export type TermReferenceInput = { id: string } | { name: string; description?: string | null };

/**
 * Trims and checks names, and drops duplicates (same id, or same name after trimming; the
 * first wins), so that adapters receive a clean list.
 */
export function normalizeTermReferences(kind: TermKind, references: readonly TermReferenceInput[]): TermReference[] {
  if (references.length > TERM_RULES.maxReferencesPerArticle) {
    throw new ValidationError(kind, `at most ${TERM_RULES.maxReferencesPerArticle} references are allowed`);
  }
  const seen = new Set<string>();
  const normalized: TermReference[] = [];
  references.forEach((reference, index) => {
    const field = `${kind}[${index}]`;
    if ('id' in reference) {
      checkTermId(`${field}.id`, reference.id);
      if (seen.has(`id:${reference.id}`)) return;
      seen.add(`id:${reference.id}`);
      normalized.push({ id: reference.id });
      return;
    }
    const name = checkTermName(`${field}.name`, reference.name);
    const description = reference.description ?? null;
    if (description !== null) checkStorableText(`${field}.description`, description, TERM_RULES.descriptionMaxLength);
    if (seen.has(`name:${name}`)) return;
    seen.add(`name:${name}`);
    normalized.push({ name, description });
  });
  return normalized;
}

function checkTermId(field: string, id: string): void {
  if (id.length === 0) throw new ValidationError(field, 'must not be empty');
  checkStorableText(field, id, TERM_RULES.idMaxLength);
}

function checkTermName(field: string, raw: string): string {
  const name = raw.trim();
  if (codePointLength(name) < 1) throw new ValidationError(field, 'must not be empty or only whitespace');
  checkStorableText(field, name, TERM_RULES.nameMaxLength);
  return name;
}

/** Terms in name order, by code point (as the storage's collation orders them). */
export function compareTermsByName(a: Term, b: Term): number {
  return compareByCodePoint(a.name, b.name);
}

export function sortTermsByName<T extends Term>(terms: readonly T[]): T[] {
  return [...terms].sort(compareTermsByName);
}
