import { ValidationError } from './errors';

/** Text rules shared by every entity. Lengths are Unicode code points, never UTF-16 units. */

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * Storable text is well-formed Unicode without NUL: PostgreSQL cannot store U+0000, and an
 * unpaired surrogate cannot be encoded as UTF-8, so neither could round-trip on every storage.
 */
export function unstorableTextReason(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (!text.isWellFormed()) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}

/** Orders strings by Unicode code point, as PostgreSQL's "C" collation and SQLite's BINARY do. */
export function compareByCodePoint(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const l = left.next();
    const r = right.next();
    if (l.done || r.done) return (l.done ? 0 : 1) - (r.done ? 0 : 1);
    const difference = (l.value.codePointAt(0) ?? 0) - (r.value.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
}

/** Throws a ValidationError naming `field` when the text is too long or cannot be stored. */
export function checkStorableText(field: string, text: string, maxLength?: number): void {
  if (maxLength !== undefined && codePointLength(text) > maxLength) {
    throw new ValidationError(field, `must be at most ${maxLength} characters`);
  }
  const unstorable = unstorableTextReason(text);
  if (unstorable) throw new ValidationError(field, unstorable);
}
