import { ValidationError } from './errors';
import { checkStorableText, codePointLength } from './text';

/** Who wrote an article: the author of the key that created it. */
export interface Author {
  /** A cuid2, as tags' and categories' ids. */
  readonly id: string;
  /** Unique; trimmed, 1..64 code points. */
  readonly name: string;
  /** Unique; from the name by the article slug rule (slugFromTitle), with `-2`, `-3`, ... when taken. */
  readonly slug: string;
}

export const AUTHOR_RULES = { nameMaxLength: 64 } as const;

/** An author's name as stored and compared: trimmed, then 1..64 code points of storable text. */
export function authorName(field: string, input: string): string {
  const name = input.trim();
  if (codePointLength(name) < 1) throw new ValidationError(field, 'must not be empty or only whitespace');
  checkStorableText(field, name, AUTHOR_RULES.nameMaxLength);
  return name;
}
