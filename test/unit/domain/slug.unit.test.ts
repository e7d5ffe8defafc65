import anyAscii from 'any-ascii';
import fc from 'fast-check';
import {
  checkSlug,
  isSlug,
  SLUG_PATTERN,
  SLUG_RULES,
  slugCandidates,
  slugFromTitle,
  slugWithSuffix,
  ValidationError,
} from '../../../src/domain';
import { explorationSeed } from '../../support/property-seed';

/** `count` letters `a`..`z` over and over: one word without a hyphen. */
const letters = (count: number) =>
  Array.from({ length: count }, (_, i) => String.fromCharCode(0x61 + (i % 26))).join('');

describe('slugFromTitle', () => {
  it.each([
    ['北京欢迎你', 'bei-jing-huan-ying-ni'],
    ['TypeScript 入门', 'typescript-ru-men'],
    ['こんにちは世界', 'konnichiha-shi-jie'],
    ['Café déjà vu', 'cafe-deja-vu'],
    ['Привет мир', 'privet-mir'],
    ['안녕하세요', 'an-nyeong-ha-se-yo'],
    ['  Hello,   World!  ', 'hello-world'],
    ['C++ & Node.js -- 2024', 'c-node-js-2024'],
    ['e\u0301te\u0301', 'ete'],
  ])('makes %j into %j', (title, slug) => {
    expect(slugFromTitle(title)).toBe(slug);
  });

  it.each([
    ['no title', null],
    ['an empty title', ''],
    ['punctuation only', '!!!'],
    ['whitespace only', ' \t\n\u3000'],
    ['characters without a transliteration', 'ー\uFE0F'],
  ])('is "article" for %s', (_, title) => {
    expect(slugFromTitle(title)).toBe(SLUG_RULES.fallback);
    expect(SLUG_RULES.fallback).toBe('article');
  });

  it('cuts a long title at a hyphen, to at most 185 characters', () => {
    const title = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const slug = slugFromTitle(title);
    expect(slug.length).toBeLessThanOrEqual(185);
    expect(title.toLowerCase().replaceAll(' ', '-').startsWith(`${slug}-`)).toBe(true);
    expect(isSlug(slug)).toBe(true);
  });

  it('keeps exactly 185 characters when the 186th is a hyphen', () => {
    expect(slugFromTitle(`${letters(185)} more`)).toBe(letters(185));
    expect(slugFromTitle(`${letters(100)} ${letters(84)} more`)).toBe(`${letters(100)}-${letters(84)}`);
  });

  it('drops the word cut through, and the hyphen before it', () => {
    expect(slugFromTitle(`${letters(100)} ${letters(85)}`)).toBe(letters(100));
    expect(slugFromTitle(`${letters(184)} ab`)).toBe(letters(184));
  });

  it('keeps the first 185 characters of a longer first word', () => {
    expect(slugFromTitle(letters(300))).toBe(letters(185));
    expect(slugFromTitle(`${letters(186)} b`)).toBe(letters(185));
  });

  it('cuts a long Han title between syllables', () => {
    const slug = slugFromTitle('北京'.repeat(100));
    expect(slug).toMatch(/^(bei-jing-)*bei(-jing)?$/);
    expect(slug.length).toBeLessThanOrEqual(185);
    expect(slug.length).toBeGreaterThan(180);
  });
});

describe('slugWithSuffix', () => {
  it('appends -n to a short base', () => {
    expect(slugWithSuffix('my-first-post', 2)).toBe('my-first-post-2');
    expect(slugWithSuffix('article', 17)).toBe('article-17');
  });

  // 93 one-letter words: a hyphen at every odd index, so some suffixes cut at index 183 or 181 exactly.
  const oneLetterWords = Array.from({ length: 93 }, () => 'a').join('-');
  // 37 words of four letters then one of five: the last hyphen is at index 179.
  const fourLetterWords = `${Array.from({ length: 37 }, () => 'abcd').join('-')}e`;

  it.each([
    ['one-letter words', 2, oneLetterWords, 183],
    ['one-letter words', 10, oneLetterWords, 181],
    ['one-letter words', 100, oneLetterWords, 181],
    ['four-letter words', 2, fourLetterWords, 179],
    ['four-letter words', 10, fourLetterWords, 179],
    ['four-letter words', 100, fourLetterWords, 179],
  ])('cuts a 185-character base of %s at a hyphen to leave room for -%i', (_, n, base, kept) => {
    expect(base).toHaveLength(185);
    const slug = slugWithSuffix(base, n);
    expect(slug).toBe(`${base.slice(0, kept)}-${n}`);
    expect(slug.length).toBeLessThanOrEqual(185);
    expect(isSlug(slug)).toBe(true);
  });

  it('keeps a base that fits exactly', () => {
    const base = `${letters(100)}-${letters(82)}`;
    expect(slugWithSuffix(base, 2)).toBe(`${base}-2`);
    expect(slugWithSuffix(base, 2)).toHaveLength(185);
  });

  it.each([
    [2, 183],
    [10, 182],
    [100, 181],
  ])('cuts a base without a hyphen to its first characters for -%i', (n, kept) => {
    const slug = slugWithSuffix(letters(185), n);
    expect(slug).toBe(`${letters(kept)}-${n}`);
    expect(slug).toHaveLength(185);
    expect(isSlug(slug)).toBe(true);
  });

  it('never leaves a hyphen before the suffix', () => {
    const base = `${letters(182)}-b`;
    expect(slugWithSuffix(base, 2)).toBe(`${letters(182)}-2`);
  });

  it('refuses a suffix below 2, a fraction, or a base that is no slug (programming errors)', () => {
    expect(() => slugWithSuffix('post', 1)).toThrow(RangeError);
    expect(() => slugWithSuffix('post', 2.5)).toThrow(RangeError);
    expect(() => slugWithSuffix('Post', 2)).toThrow(RangeError);
    expect(() => slugWithSuffix('', 2)).toThrow(RangeError);
  });
});

describe('isSlug and checkSlug', () => {
  it.each([
    ['one word', 'post'],
    ['digits only', '2024'],
    ['words and digits', 'my-first-post-2'],
    ['one character', 'a'],
    ['185 characters', letters(185)],
    ['185 characters with hyphens', `${letters(92)}-${letters(92)}`],
  ])('accepts %s', (_, text) => {
    expect(isSlug(text)).toBe(true);
    expect(SLUG_PATTERN.test(text)).toBe(true);
    expect(() => checkSlug('slug', text)).not.toThrow();
  });

  it.each([
    ['the empty string', ''],
    ['upper case', 'My-Post'],
    ['a leading hyphen', '-post'],
    ['a trailing hyphen', 'post-'],
    ['a double hyphen', 'my--post'],
    ['186 characters', letters(186)],
    ['non-ASCII letters', 'café'],
    ['Han characters', '北京'],
    ['a space', 'my post'],
    ['an underscore', 'my_post'],
    ['a line break at the end', 'post\n'],
  ])('refuses %s with a ValidationError naming the field and what a slug is', (_, text) => {
    expect(isSlug(text)).toBe(false);
    let thrown: unknown;
    try {
      checkSlug('slug', text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({
      field: 'slug',
      reason: 'must be 1 to 185 characters of a-z, 0-9 and single hyphens between them, such as "my-first-post"',
    });
  });
});

/**
 * The rule written the plain way, code point by code point: transliterate each character on its
 * own (a Han or Hangul one between word breaks), collect the words of a-z0-9, then take whole
 * words while they fit, or the start of a first word that is too long.
 */
const HAN_OR_HANGUL = /^[\p{Script=Han}\p{Script=Hangul}]$/u;
const SLUG_CHARACTER = /^[a-z0-9]$/;

function modelSlug(title: string | null): string {
  if (title === null) return 'article';
  const words: string[] = [];
  let word = '';
  const endWord = () => {
    if (word !== '') words.push(word);
    word = '';
  };
  for (const character of title) {
    const ownWord = HAN_OR_HANGUL.test(character);
    if (ownWord) endWord();
    for (const ascii of anyAscii(character).toLowerCase()) {
      if (SLUG_CHARACTER.test(ascii)) word += ascii;
      else endWord();
    }
    if (ownWord) endWord();
  }
  endWord();
  return modelCut(words, 185) || 'article';
}

function modelCut(words: readonly string[], max: number): string {
  let kept = '';
  for (const word of words) {
    const longer = kept === '' ? word : `${kept}-${word}`;
    if (longer.length > max) break;
    kept = longer;
  }
  return kept === '' && words[0] !== undefined ? words[0].slice(0, max) : kept;
}

const codePoints = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCodePoint(c));

/** One "character" of a title: most scripts a title may hold, marks, spaces, emoji, and anything at all. */
const titleUnit = fc.oneof(
  { arbitrary: codePoints(0x20, 0x7e), weight: 4 },
  { arbitrary: fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u3000', '-', '--', '_', '.', '!'), weight: 3 },
  { arbitrary: codePoints(0xc0, 0x24f), weight: 1 }, // Latin with diacritics
  { arbitrary: codePoints(0x300, 0x36f), weight: 1 }, // combining marks
  { arbitrary: codePoints(0x400, 0x4ff), weight: 1 }, // Cyrillic
  { arbitrary: codePoints(0x4e00, 0x9fff), weight: 2 }, // Han
  { arbitrary: codePoints(0x20000, 0x2a6df), weight: 1 }, // Han, extension B (astral)
  { arbitrary: codePoints(0xac00, 0xd7a3), weight: 2 }, // Hangul syllables
  { arbitrary: codePoints(0x1100, 0x11ff), weight: 1 }, // Hangul jamo
  { arbitrary: codePoints(0x3040, 0x30ff), weight: 2 }, // Hiragana and Katakana
  { arbitrary: codePoints(0x1f300, 0x1faff), weight: 1 }, // emoji
  {
    arbitrary: fc.constantFrom('👩\u200d💻', '🇫🇷', '\ufe0f', '々', 'ー', 'ß', 'İ', 'Æ', '½', '\uD800', '\uDFFF'),
    weight: 1,
  },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
);
const mixedTitle = fc.string({ unit: titleUnit, maxLength: 200 });

/** Long words of ASCII and Latin letters with few breaks: they exercise every way of cutting. */
const longWordsTitle = fc
  .array(
    fc.tuple(
      fc.string({ unit: fc.constantFrom('a', 'z', '0', 'é', 'ß'), maxLength: 190 }),
      fc.constantFrom(' ', '-', '!', '北', ''),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.map(([word, separator]) => word + separator).join(''));

/** Two words whose slug is 183 to 187 characters long, then a third: the cut lands on every side of a hyphen. */
const nearTheLimitTitle = fc
  .tuple(fc.integer({ min: 1, max: 181 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: 0, max: 5 }))
  .map(([first, delta, third]) => `${'a'.repeat(first)} ${'b'.repeat(184 - first + delta)}-${'c'.repeat(third)}`);

const title = fc.option(fc.oneof(mixedTitle, longWordsTitle, nearTheLimitTitle), { nil: null, freq: 20 });

describe('slugFromTitle against a plain model', () => {
  const seed = explorationSeed(185);
  it(`agrees with the model on any title, and always gives a slug (seed ${seed})`, () => {
    fc.assert(
      fc.property(title, (text) => {
        const slug = slugFromTitle(text);
        expect(slug).toBe(modelSlug(text));
        expect(isSlug(slug)).toBe(true);
      }),
      { seed, numRuns: 2_000 },
    );
  });

  it(`slugWithSuffix keeps whole words of the base where it can, within 185 characters (seed ${seed})`, () => {
    const base = fc
      .array(fc.string({ unit: fc.constantFrom('a', 'b', '7'), minLength: 1, maxLength: 190 }), {
        minLength: 1,
        maxLength: 6,
      })
      .map((words) => modelCut(words, 185));
    const n = fc.oneof(fc.integer({ min: 2, max: 1_000 }), fc.integer({ min: 2, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(base, n, (slug, suffix) => {
        const suffixed = slugWithSuffix(slug, suffix);
        expect(suffixed).toBe(`${modelCut(slug.split('-'), 185 - `-${suffix}`.length)}-${suffix}`);
        expect(isSlug(suffixed)).toBe(true);
      }),
      { seed, numRuns: 1_000 },
    );
  });
});

describe('slugCandidates', () => {
  it('is the base, then its suffixed forms in order, from any position', () => {
    expect(slugCandidates('post', 1, 3)).toEqual(['post', 'post-2', 'post-3']);
    expect(slugCandidates('post', 9, 2)).toEqual(['post-9', 'post-10']);
    const long = 'x'.repeat(185);
    expect(slugCandidates(long, 2, 1)).toEqual([slugWithSuffix(long, 2)]);
  });
});
