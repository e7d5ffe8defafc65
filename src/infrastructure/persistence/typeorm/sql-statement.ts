import type { TermKind } from '../../../domain';
import type { SqlDialect } from './sql-dialect';

/**
 * One statement of the repository. `name` identifies it (PostgreSQL prepares it once per
 * connection under that name); `text` is written once for both dialects from the dialect's
 * fragments. Values are positional: the n-th value is parameter n.
 */
export interface SqlStatement {
  readonly name: string;
  readonly text: string;
  /** PostgreSQL plans it for each call's values instead of preparing it once (a generic plan). */
  readonly planEachTime?: boolean;
}

export const TERM_KINDS: readonly TermKind[] = ['tag', 'category'];

/** What the statement files share: the dialect, how a statement is named, an article's columns with its terms, combined writes. */
export interface StatementParts {
  readonly d: SqlDialect;
  statement(name: string, text: string): SqlStatement;
  /** The columns of article `a` (its alias in the statement). */
  readonly articleColumns: string;
  /** The columns of article `a` and its terms as two JSON arrays (`tags`, `categories`). */
  withTermsOf(a: string): string;
  /** Data-changing statements sharing their parameters: one where the dialect combines them, else each in order. */
  writes(name: string, steps: SqlStatement[]): readonly SqlStatement[];
}
