import fc from 'fast-check';

/** Characters that break naive code: controls, bidi overrides, joiners, BOM, noncharacters, lone surrogates. */
const EDGE_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u00a0',
  '\t',
  '\n',
  '\r',
  ' ',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83d',
  '\ud800\udc00',
  '\udbff\udfff',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u2028',
  '\u2029',
  '\u3000',
  '\ufeff',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '\u0301',
  '\u0338',
  'א',
  'ا',
  'ﷺ',
  '漢',
  'é',
  'Ω',
  '🦀',
  '👩‍👩‍👧',
  '🇺🇳',
  '🏳️‍🌈',
  '\\',
  '"',
  "'",
  '`',
  '%',
  '_',
  '$',
];

/** Strings that would do harm if a layer built SQL or HTML by concatenation. */
const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE articles; --",
  '"; DELETE FROM tags; --',
  "1; UPDATE articles SET title='x'",
  '$1',
  '?',
  ':id',
  '\\x00',
  "E'\\\\x41'",
  'NULL',
  'COLLATE "C"',
  '/* */',
  "' UNION SELECT * FROM tags --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '&amp;&lt;',
  '&#0;',
  ']]>',
  '<!--',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  '${process.exit()}',
  '__proto__',
  'constructor',
];

const unit = fc.oneof(
  { arbitrary: fc.constantFrom(...EDGE_CHARACTERS), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.constantFrom(...INJECTIONS), weight: 1 },
);

/**
 * Text mixing all of the above. A third of the values keep their NUL and lone surrogates, so
 * some must be rejected; the rest have them replaced, so most whole articles are storable.
 */
export const hostileText = (maxUnits: number) =>
  fc.oneof(
    { arbitrary: fc.string({ unit, maxLength: maxUnits }), weight: 1 },
    {
      arbitrary: fc.string({ unit, maxLength: maxUnits }).map((text) => text.replaceAll('\u0000', '␀').toWellFormed()),
      weight: 2,
    },
  );

/** Text right at a length limit, in characters of 1 to 4 UTF-8 bytes (and 2 UTF-16 units). */
export const textNearLimit = (limit: number) =>
  fc
    .integer({ min: limit - 3, max: limit + 3 })
    .chain((length) =>
      fc.string({ unit: fc.constantFrom('a', 'é', '漢', '🦀'), minLength: length, maxLength: length }),
    );

/** Keys that reach the prototype chain when code copies objects carelessly. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
  '__lookupGetter__',
];

/** Raw text for a path segment: numbers of every size and form, and any string. */
export const pathIdText = fc.oneof(
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.integer({ min: 2_147_483_640, max: 2_147_483_655 }).map(String),
  fc.constantFrom('0', '-1', '01', '1e3', '1.0', '0x10', ' 1', '1 ', '+1', '١', '２', 'NaN', 'Infinity', '..', '.'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...EDGE_CHARACTERS), minLength: 1, maxLength: 10 }),
);

/** Anything for the path, valid percent-encoding or not, slashes and query included. */
export const rawPathSuffix = fc.string({
  unit: fc.constantFrom(
    '%',
    '%0',
    '%00',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%FF',
    '%2F',
    '/',
    '?',
    '#',
    '1',
    'a',
    '.',
    ';',
    '&',
    '=',
    '~',
  ),
  maxLength: 12,
});

/**
 * A query string for GET /article: the parameters it reads and others, values valid or not,
 * escapes well-formed (`%C3%A9`, `%20`, `+`) and malformed (`%`, `%zz`, bad UTF-8).
 */
export const rawQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom('q', 'tag', 'category', 'limit', 'after', 'page', '', 'q%20', '%71', '%zz', '%C3'),
      fc.option(
        fc.string({
          unit: fc.constantFrom(
            'a',
            '1',
            '5',
            '+',
            '%20',
            '%C3%A9',
            '%',
            '%0',
            '%zz',
            '%C3%28',
            '%E0%A4%A',
            '%FF',
            '=',
          ),
          maxLength: 6,
        }),
        { nil: undefined },
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([name, value]) => (value === undefined ? name : `${name}=${value}`)).join('&'));

/** Whether every name and value of a query decodes as percent-encoded UTF-8 (`+` a space). */
export function queryDecodes(query: string): boolean {
  return query
    .split('&')
    .flatMap((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 ? [pair] : [pair.slice(0, equals), pair.slice(equals + 1)];
    })
    .every((part) => {
      try {
        decodeURIComponent(part.replaceAll('+', ' '));
        return true;
      } catch {
        return false;
      }
    });
}

/** Unreserved and sub-delimiter ASCII characters go as themselves; every other UTF-8 byte is percent-encoded. */
export function percentEncode(raw: string): string {
  return [...Buffer.from(raw, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~!$&'()*+,;=:@]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}
