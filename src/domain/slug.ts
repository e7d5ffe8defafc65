import anyAscii from 'any-ascii';
import { ValidationError } from './errors';

/** An article's slug: lower-case ASCII words joined by single hyphens, short enough for a URL segment. */
export const SLUG_RULES = { maxLength: 185, fallback: 'article' } as const;
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const SLUG_REASON =
  `must be 1 to ${SLUG_RULES.maxLength} characters of a-z, 0-9 and single hyphens between them, ` +
  'such as "my-first-post"';

// any-ascii runs a Han or Hangul sequence together ("BeiJing"); spaces around each character
// make every syllable a word of its own.
const HAN_OR_HANGUL = /[\p{Script=Han}\p{Script=Hangul}]/gu;
const NOT_SLUG_CHARACTERS = /[^a-z0-9]+/g;
const EDGE_HYPHENS = /^-+|-+$/g;

export function isSlug(text: string): boolean {
  // The length first: the pattern then never runs over long input.
  return text.length >= 1 && text.length <= SLUG_RULES.maxLength && SLUG_PATTERN.test(text);
}

/** Throws a ValidationError naming `field` when `text` is not a slug. */
export function checkSlug(field: string, text: string): void {
  if (!isSlug(text)) throw new ValidationError(field, SLUG_REASON);
}

/**
 * The slug a title gives: transliterated to ASCII, lower-cased, every run of other characters one
 * hyphen, cut at a hyphen to the maximum length; `article` when nothing is left.
 */
export function slugFromTitle(title: string | null): string {
  if (title === null) return SLUG_RULES.fallback;
  const slug = anyAscii(title.replace(HAN_OR_HANGUL, ' $& '))
    .toLowerCase()
    .replace(NOT_SLUG_CHARACTERS, '-')
    .replace(EDGE_HYPHENS, '');
  return slug === '' ? SLUG_RULES.fallback : cutAtHyphen(slug, SLUG_RULES.maxLength);
}

/**
 * `base-n`, the n-th slug (n ≥ 2) of a title whose slug is taken; the base is cut shorter, at a
 * hyphen where it has one, so that the whole stays within the maximum length.
 */
export function slugWithSuffix(base: string, n: number): string {
  // Wrong arguments are a programming error, not a client's: a RangeError, not a ValidationError.
  if (!Number.isSafeInteger(n) || n < 2) throw new RangeError(`slug suffix must be an integer ≥ 2, got ${n}`);
  if (!isSlug(base)) throw new RangeError(`slug base must be a slug, got ${JSON.stringify(base)}`);
  const suffix = `-${n}`;
  return cutAtHyphen(base, SLUG_RULES.maxLength - suffix.length) + suffix;
}

/**
 * `slug` (no hyphen at either end, none doubled) at most `max` characters long: whole words where
 * the first one fits, else the first `max` characters. Never ends with a hyphen.
 */
function cutAtHyphen(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  // A hyphen at index `max` keeps exactly `max` characters; one before it keeps fewer.
  const hyphen = slug.lastIndexOf('-', max);
  return slug.slice(0, hyphen > 0 ? hyphen : max);
}

/**
 * The slugs a title's base may take, in order: the base itself (n = 1), then `slugWithSuffix`
 * n = 2, 3, …; `count` of them from the `from`-th. The smallest free one is the slug to store.
 */
export function slugCandidates(base: string, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => (from + index === 1 ? base : slugWithSuffix(base, from + index)));
}
