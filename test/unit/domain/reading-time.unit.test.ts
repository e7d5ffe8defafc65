import fc from 'fast-check';
import { readingTimeOf } from '../../../src/domain';
import { explorationSeed } from '../../support/property-seed';

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');
const han = (count: number) => '字'.repeat(count);

describe('readingTimeOf', () => {
  it('is at least one minute, even for no words at all', () => {
    expect(readingTimeOf('')).toBe(1);
    expect(readingTimeOf(' \n\t ... !!! ')).toBe(1);
    expect(readingTimeOf('one')).toBe(1);
  });

  it('reads 275 words a minute', () => {
    expect(readingTimeOf(words(275))).toBe(1);
    expect(readingTimeOf(words(276))).toBe(2);
    expect(readingTimeOf(words(550))).toBe(2);
    expect(readingTimeOf(words(551))).toBe(3);
  });

  it('reads 500 CJK characters a minute, each counted on its own', () => {
    expect(readingTimeOf(han(500))).toBe(1);
    expect(readingTimeOf(han(501))).toBe(2);
    expect(readingTimeOf('あ'.repeat(500))).toBe(1);
    expect(readingTimeOf('カ'.repeat(501))).toBe(2);
    expect(readingTimeOf('한'.repeat(1000))).toBe(2);
    expect(readingTimeOf('𠀀'.repeat(501))).toBe(2); // Han extension B, two UTF-16 units each
  });

  it('adds the time of words and of CJK characters', () => {
    // 137 words (68500) + 250 CJK (68750) = 137250 ≤ 137500; one more word goes over.
    expect(readingTimeOf(`${words(137)} ${han(250)}`)).toBe(1);
    expect(readingTimeOf(`${words(138)} ${han(250)}`)).toBe(2);
    // A CJK character ends a word: "TypeScript入门" is one word and two characters.
    expect(readingTimeOf('TypeScript入门 '.repeat(130))).toBe(1); // 130 × 500 + 260 × 275 = 136500
    expect(readingTimeOf('TypeScript入门 '.repeat(131))).toBe(2); // 131 × 500 + 262 × 275 = 137550
  });

  it('keeps a combining mark in its word', () => {
    // "e" + U+0301 is one word, not two; 275 of them take one minute.
    expect(readingTimeOf(Array.from({ length: 275 }, () => 'e\u0301').join(' '))).toBe(1);
    expect(readingTimeOf(Array.from({ length: 138 }, () => 'caf\u0301e').join(' '))).toBe(1);
    expect(readingTimeOf('caf\u0301e '.repeat(276))).toBe(2);
  });

  it('splits words at punctuation and symbols', () => {
    // "a.b" is two words: 138 of them are 276 words.
    expect(readingTimeOf('a.b '.repeat(137))).toBe(1);
    expect(readingTimeOf('a.b '.repeat(138))).toBe(2);
    expect(readingTimeOf('x—y '.repeat(138))).toBe(2);
    expect(readingTimeOf("don't ".repeat(138))).toBe(2);
  });

  it('counts letters and digits of any script as words', () => {
    expect(readingTimeOf('Привет '.repeat(276))).toBe(2);
    expect(readingTimeOf('٣٤ '.repeat(276))).toBe(2);
    expect(readingTimeOf('mot '.repeat(275))).toBe(1);
  });

  it('counts a lone surrogate as no character', () => {
    expect(readingTimeOf('a\uD800b '.repeat(138))).toBe(2);
    expect(readingTimeOf('\uDC00'.repeat(10_000))).toBe(1);
  });

  it('reads a megabyte of text', () => {
    expect(readingTimeOf('word '.repeat(200_000))).toBe(Math.ceil(200_000 / 275));
    expect(readingTimeOf('汉'.repeat(1_000_000))).toBe(2_000);
  });
});

/** The rule written the plain way: one code point at a time, regular expressions, BigInt. */
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;
const WORD = /^[\p{L}\p{N}\p{M}]$/u;

function modelReadingTime(content: string): number {
  let wordCount = 0n;
  let cjkCount = 0n;
  let inWord = false;
  for (const character of content) {
    if (CJK.test(character)) {
      cjkCount++;
      inWord = false;
    } else if (WORD.test(character)) {
      if (!inWord) wordCount++;
      inWord = true;
    } else {
      inWord = false;
    }
  }
  const units = 500n * wordCount + 275n * cjkCount;
  const minutes = (units + 137_499n) / 137_500n;
  return minutes < 1n ? 1 : Number(minutes);
}

const codePoints = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCodePoint(c));

const contentUnit = fc.oneof(
  { arbitrary: codePoints(0x20, 0x7e), weight: 6 },
  { arbitrary: fc.constantFrom(' ', '\n', '\u00a0', '\u3000', '。', '、', '—', 'ー', '々', '\u3099'), weight: 2 },
  { arbitrary: fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF'), weight: 1 }, // lone surrogates
  { arbitrary: codePoints(0x300, 0x36f), weight: 1 }, // combining marks
  { arbitrary: codePoints(0x400, 0x4ff), weight: 1 }, // Cyrillic
  { arbitrary: codePoints(0x660, 0x669), weight: 1 }, // Arabic-Indic digits
  { arbitrary: codePoints(0x4e00, 0x9fff), weight: 2 }, // Han
  { arbitrary: codePoints(0x20000, 0x2a6df), weight: 1 }, // Han, extension B (astral)
  { arbitrary: codePoints(0x3040, 0x30ff), weight: 2 }, // Hiragana and Katakana
  { arbitrary: codePoints(0xff61, 0xff9f), weight: 1 }, // half-width Katakana
  { arbitrary: codePoints(0xac00, 0xd7a3), weight: 1 }, // Hangul
  { arbitrary: codePoints(0x1d400, 0x1d7ff), weight: 1 }, // mathematical letters (astral letters)
  { arbitrary: codePoints(0x1f300, 0x1faff), weight: 1 }, // emoji
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 2 },
);

describe('readingTimeOf against a plain model', () => {
  const seed = explorationSeed(275);
  it(`agrees with the model on any text (seed ${seed})`, () => {
    fc.assert(
      fc.property(fc.string({ unit: contentUnit, maxLength: 1_000 }), (content) => {
        expect(readingTimeOf(content)).toBe(modelReadingTime(content));
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it(`agrees with the model on texts of several minutes (seed ${seed})`, () => {
    const longContent = fc
      .array(fc.tuple(fc.string({ unit: contentUnit, maxLength: 60 }), fc.integer({ min: 1, max: 400 })), {
        minLength: 1,
        maxLength: 4,
      })
      .map((parts) => parts.map(([piece, times]) => piece.repeat(times)).join(' '));
    fc.assert(
      fc.property(longContent, (content) => {
        expect(readingTimeOf(content)).toBe(modelReadingTime(content));
      }),
      { seed, numRuns: 200 },
    );
  });
});
