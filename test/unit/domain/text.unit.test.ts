import fc from 'fast-check';
import {
  codePointLength,
  compareByCodePoint,
  sortTermsByName,
  type Term,
  unstorableTextReason,
} from '../../../src/domain';

describe('codePointLength', () => {
  it('counts an astral character (two UTF-16 units) as one', () => {
    expect('😀'.length).toBe(2);
    expect(codePointLength('😀')).toBe(1);
    expect(codePointLength('a😀b')).toBe(3);
  });

  it('counts BMP characters one each, and the empty string as zero', () => {
    expect(codePointLength('这篇文章')).toBe(4);
    expect(codePointLength('')).toBe(0);
  });

  it('counts a combining mark as its own code point', () => {
    expect(codePointLength('e\u0301')).toBe(2);
  });
});

describe('unstorableTextReason', () => {
  it('rejects text containing NUL', () => {
    expect(unstorableTextReason('a\u0000b')).toBe('must not contain the NUL character (U+0000)');
    expect(unstorableTextReason('\u0000')).toBe('must not contain the NUL character (U+0000)');
  });

  it.each([
    ['a lone high surrogate', 'x\uD83D'],
    ['a lone low surrogate', '\uDE00x'],
    ['a low surrogate before a high one', '\uDE00\uD83D'],
  ])('rejects %s', (_, text) => {
    expect(unstorableTextReason(text)).toBe('must not contain unpaired UTF-16 surrogates');
  });

  it.each([
    ['plain text', 'hello'],
    ['the empty string', ''],
    ['whitespace', ' \t\n'],
    ['a paired surrogate (emoji)', '😀'],
    ['CJK text', '这篇文章还没有介绍...'],
  ])('accepts %s', (_, text) => {
    expect(unstorableTextReason(text)).toBeNull();
  });
});

describe('compareByCodePoint', () => {
  it('orders by code point where UTF-16 order says otherwise', () => {
    // U+FF5A is below U+1F600, but '😀' starts with the unit 0xD83D, below 0xFF5A.
    expect('😀' < 'ｚ').toBe(true);
    expect(compareByCodePoint('ｚ', '😀')).toBeLessThan(0);
    expect(compareByCodePoint('😀', 'ｚ')).toBeGreaterThan(0);
  });

  it('puts upper case before lower case (no locale folding)', () => {
    expect(compareByCodePoint('B', 'a')).toBeLessThan(0);
    expect(compareByCodePoint('a', 'é')).toBeLessThan(0);
  });

  it('puts a prefix before the longer string', () => {
    expect(compareByCodePoint('ab', 'abc')).toBeLessThan(0);
    expect(compareByCodePoint('abc', 'ab')).toBeGreaterThan(0);
    expect(compareByCodePoint('', 'a')).toBeLessThan(0);
  });

  it('answers 0 for equal strings', () => {
    expect(compareByCodePoint('abc😀', 'abc😀')).toBe(0);
    expect(compareByCodePoint('', '')).toBe(0);
  });

  it('agrees with comparing the code points one by one, for any well-formed strings', () => {
    // Units from every range whose order matters: ASCII, below the surrogates, U+E000–U+FFFF, astral.
    const character = fc.constantFrom('a', 'B', 'é', '\ud7ff', '\ue000', 'ｚ', '\uffff', '😀', '𐀀', '\u{10ffff}');
    const text = fc.array(character, { maxLength: 6 }).map((characters) => characters.join(''));
    const codePoints = (value: string) => Array.from(value, (character) => character.codePointAt(0) ?? 0);
    const byCodePoints = (a: string, b: string) => {
      const [left, right] = [codePoints(a), codePoints(b)];
      for (let index = 0; index < Math.min(left.length, right.length); index++)
        if (left[index] !== right[index]) return Math.sign((left[index] ?? 0) - (right[index] ?? 0));
      return Math.sign(left.length - right.length);
    };
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareByCodePoint(a, b))).toBe(byCodePoints(a, b));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('sortTermsByName', () => {
  const term = (name: string, id = name): Term => ({ id, name, description: null });

  it('sorts by name in code-point order without changing the input', () => {
    const terms = ['😀', 'ｚ', 'é', 'z', 'a', 'B'].map((name) => term(name));
    const input = [...terms];

    const sorted = sortTermsByName(terms);

    expect(sorted.map((t) => t.name)).toEqual(['B', 'a', 'z', 'é', 'ｚ', '😀']);
    expect(terms).toEqual(input);
  });

  it('keeps the given order of equal names', () => {
    const sorted = sortTermsByName([term('b', '1'), term('a', '2'), term('b', '3')]);
    expect(sorted.map((t) => t.id)).toEqual(['2', '1', '3']);
  });
});
