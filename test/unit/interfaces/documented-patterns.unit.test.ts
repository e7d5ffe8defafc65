import fc from 'fast-check';
import { codePointLength, unstorableTextReason } from '../../../src/domain';
import {
  decimalIntegerPattern,
  STORABLE_TEXT,
  trimmedTextPattern,
} from '../../../src/interfaces/http/validation/documented-patterns';
import { propertySeed } from '../../support/property-seed';

/** As JSON Schema validators match a pattern: ECMA-262 with the `u` flag, unanchored. */
const matches = (pattern: string, text: string) => new RegExp(pattern, 'u').test(text);

const seed = propertySeed(26);
const numRuns = 2000;

/** Text near the edges of what the patterns decide: digits, whitespace, NUL, lone surrogates, astral characters. */
const edgyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '9',
      ' ',
      '\t',
      '\u00a0',
      '\ufeff',
      '\u2028',
      '\u0000',
      '\ud800',
      '\udfff',
      '😀',
      '+',
      'e',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 80,
});

describe('the patterns the OpenAPI document states', () => {
  it('decimalIntegerPattern accepts exactly the decimal integers from 1 to max that the parsers accept', () => {
    const decimalOrNot = fc.oneof(fc.nat().map(String), fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String), edgyText);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), decimalOrNot, (max, text) => {
        const accepted = /^[1-9][0-9]*$/.test(text) && Number(text) <= max;
        expect(matches(decimalIntegerPattern(max), text)).toBe(accepted);
      }),
      { seed, numRuns },
    );
    // The bounds themselves, on the limits the service uses.
    for (const [max, text, accepted] of [
      [100, '100', true],
      [100, '101', false],
      [2_147_483_647, '2147483647', true],
      [2_147_483_647, '2147483648', false],
      [2_147_483_647, '01', false],
    ] as const) {
      expect(matches(decimalIntegerPattern(max), text)).toBe(accepted);
    }
  });

  it('trimmedTextPattern accepts exactly the storable text of 1 to max code points once trimmed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), edgyText, (max, text) => {
        const trimmed = text.trim();
        const length = codePointLength(trimmed);
        const accepted = length >= 1 && length <= max && unstorableTextReason(text) === null;
        expect(matches(trimmedTextPattern(max), text)).toBe(accepted);
      }),
      { seed, numRuns },
    );
  });

  it('STORABLE_TEXT accepts exactly the text the domain can store', () => {
    fc.assert(
      fc.property(edgyText, (text) => {
        expect(matches(STORABLE_TEXT, text)).toBe(unstorableTextReason(text) === null);
      }),
      { seed, numRuns },
    );
  });
});
