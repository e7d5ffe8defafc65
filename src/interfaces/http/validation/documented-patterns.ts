/**
 * JSON Schema patterns (ECMA-262, matched with the `u` flag as JSON Schema validators do) that
 * state in the OpenAPI document exactly what the domain and the parsers accept, so that a client
 * or a validator working from the document agrees with the service on every input.
 */

/** What storable text may not hold (NUL, an unpaired surrogate): see unstorableTextReason. */
const UNSTORABLE = '\\u0000\\uD800-\\uDFFF';

/** Any storable text. With the `u` flag, `\uD800-\uDFFF` matches only unpaired surrogates. */
export const STORABLE_TEXT = `^[^${UNSTORABLE}]*$`;

/**
 * Storable text that is 1 to `maxLength` code points once trimmed (JavaScript's `trim` removes
 * exactly what `\s` matches): a first and a last character that are not whitespace, at most
 * `maxLength` apart, with any whitespace around them.
 */
export function trimmedTextPattern(maxLength: number): string {
  const edge = `[^\\s${UNSTORABLE}]`;
  return `^\\s*${edge}(?:[^${UNSTORABLE}]{0,${maxLength - 2}}${edge})?\\s*$`;
}

/**
 * Decimal text of an integer from 1 to `max`, without sign, leading zero or exponent: what
 * parsePathId and the `limit` parser accept. Shorter numbers, then for each digit of `max` the
 * numbers that share its prefix and are lower at that digit, then `max` itself.
 */
export function decimalIntegerPattern(max: number): string {
  const digits = String(max);
  const alternatives: string[] = [];
  if (digits.length > 1) alternatives.push(`[1-9][0-9]{0,${digits.length - 2}}`);
  for (let position = 0; position < digits.length; position++) {
    const lowest = position === 0 ? 1 : 0;
    const below = Number(digits[position]) - 1;
    const rest = digits.length - position - 1;
    if (below >= lowest) {
      alternatives.push(`${digits.slice(0, position)}[${lowest}-${below}]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
    }
  }
  alternatives.push(digits);
  return `^(?:${alternatives.join('|')})$`;
}

/**
 * An ISO 8601 date-time written in the year 0000 before its last day: before year 1 in UTC
 * whatever its offset (a negative one moves 0000-12-31 into year 1). A body's `publishedAt` is
 * documented as `not` this.
 */
export const YEAR_ZERO_BEFORE_ITS_LAST_DAY = '^0000-(?:0\\d|1[01]|12-(?:[0-2]\\d|30))';
