import {
  isReferenceById,
  sortTermsByName,
  type Term,
  type TermKind,
  type TermReference,
  UnknownReferenceError,
} from '../../../domain';
import { newTermId } from '../term-id';

/** The tags and categories of the in-memory store, by id and by name. */
export class InMemoryTerms {
  private readonly byId: Record<TermKind, Map<string, Term>> = { tag: new Map(), category: new Map() };
  private readonly idsByName: Record<TermKind, Map<string, string>> = { tag: new Map(), category: new Map() };

  /** Runs before anything is written, so that a failing reference leaves no trace. */
  checkReferencedIds(kind: TermKind, references: readonly TermReference[]): void {
    for (const reference of references) {
      if (isReferenceById(reference) && !this.byId[kind].has(reference.id)) {
        throw new UnknownReferenceError(kind, reference.id);
      }
    }
  }

  /** The ids to link, creating the named terms that are new. */
  resolve(kind: TermKind, references: readonly TermReference[]): string[] {
    const terms = this.byId[kind];
    const idsByName = this.idsByName[kind];
    const ids = references.map((reference) => {
      if (isReferenceById(reference)) return reference.id;
      const existingId = idsByName.get(reference.name);
      if (existingId) return existingId;
      const created: Term = { id: newTermId(), name: reference.name, description: reference.description };
      terms.set(created.id, created);
      idsByName.set(created.name, created.id);
      return created.id;
    });
    return [...new Set(ids)];
  }

  /** The id of the term of this exact name; null when none has it, undefined when no name is asked. */
  idOf(kind: TermKind, name: string | undefined): string | null | undefined {
    return name === undefined ? undefined : (this.idsByName[kind].get(name) ?? null);
  }

  /** Copies of the terms with these ids, ordered by name. */
  termsOf(kind: TermKind, ids: readonly string[]): Term[] {
    const terms = this.byId[kind];
    return sortTermsByName(ids.map((id) => ({ ...(terms.get(id) as Term) })));
  }

  list(kind: TermKind): Term[] {
    return sortTermsByName([...this.byId[kind].values()]).map((term) => ({ ...term }));
  }
}
