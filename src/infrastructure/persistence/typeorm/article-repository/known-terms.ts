import { LRUCache } from 'lru-cache';
import { isReferenceByName, type Term, type TermKind } from '../../../../domain';
import { TERM_KINDS } from '../sql-statement';
import type { TermReferences } from './term-resolution';

/** Terms remembered per process: a few MB at most, and far more than a blog's tags and categories. */
export const KNOWN_TERMS_MAX = 10_000;

/**
 * The terms this process has stored or found, by id and by name per kind, so that a create
 * naming only terms known here links them by id without looking them up (ADR 0052). Terms are
 * never changed or deleted, so what is remembered stays true; only a database restored to an
 * earlier point can lack one, and then the link's foreign key refuses the create, which
 * forgets them all and resolves its terms in the database.
 */
export class KnownTerms {
  private readonly terms: LRUCache<string, Term>;

  constructor(max = KNOWN_TERMS_MAX) {
    // Two keys per term: by id and by name.
    this.terms = new LRUCache({ max: 2 * max });
  }

  /** Each kind's terms referenced, once each, in the order referenced; null unless every one is known. */
  lookup(references: TermReferences): Record<TermKind, Term[]> | null {
    const resolved: Record<TermKind, Term[]> = { tag: [], category: [] };
    for (const kind of TERM_KINDS) {
      const unique = new Map<string, Term>();
      for (const reference of references[kind]) {
        const term = this.terms.get(
          isReferenceByName(reference) ? nameKey(kind, reference.name) : idKey(kind, reference.id),
        );
        if (!term) return null;
        unique.set(term.id, term);
      }
      resolved[kind] = [...unique.values()];
    }
    return resolved;
  }

  /** Terms that exist: committed by a write, or read from the database. */
  remember(terms: Record<TermKind, readonly Term[]>): void {
    for (const kind of TERM_KINDS) {
      for (const term of terms[kind]) {
        this.terms.set(idKey(kind, term.id), term);
        this.terms.set(nameKey(kind, term.name), term);
      }
    }
  }

  forgetAll(): void {
    this.terms.clear();
  }
}

const idKey = (kind: TermKind, id: string) => `${kind} id ${id}`;
const nameKey = (kind: TermKind, name: string) => `${kind} name ${name}`;
