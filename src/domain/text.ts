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

/**
 * Orders well-formed strings by Unicode code point, as PostgreSQL's "C" collation and SQLite's
 * BINARY do. UTF-16 units already compare so, except that a surrogate (half of a code point
 * above U+FFFF) is below U+E000–U+FFFF: at the first unit that differs, surrogates are moved
 * above them. Unit by unit, with no iterator: the whole list sorts every article's terms so.
 */
export function compareByCodePoint(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let index = 0; index < shorter; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left !== right) return codePointRank(left) - codePointRank(right);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/** Throws a ValidationError naming `field` when the text is too long or cannot be stored. */
export function checkStorableText(field: string, text: string, maxLength?: number): void {
  if (maxLength !== undefined && codePointLength(text) > maxLength) {
    throw new ValidationError(field, `must be at most ${maxLength} characters`);
  }
  const unstorable = unstorableTextReason(text);
  if (unstorable) throw new ValidationError(field, unstorable);
}
