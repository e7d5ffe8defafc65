/**
 * Minutes to read a text, at least one: 275 words a minute, or 500 CJK characters a minute.
 * CJK characters are those of the Han, Hiragana, Katakana and Hangul scripts, each counted on
 * its own; a word is a maximal run of other letters, digits and combining marks.
 */
export function readingTimeOf(content: string): number {
  const { words, cjk } = countWordsAndCjk(content);
  // In 1/137500 minute: a word takes 500 of them, a CJK character 275. Integers throughout.
  const units = 500 * words + 275 * cjk;
  const whole = (units - (units % 137_500)) / 137_500;
  return Math.max(1, units % 137_500 === 0 ? whole : whole + 1);
}

const OTHER = 1;
const WORD = 2;
const CJK = 3;

const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/uy;
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/uy;

/**
 * The class of each BMP code unit, filled on first sight: one regular expression test per distinct
 * character instead of one per character read keeps a megabyte to a few milliseconds.
 */
const bmpClass = new Uint8Array(0x10000);

function classAt(text: string, index: number): number {
  CJK_CHARACTER.lastIndex = index;
  if (CJK_CHARACTER.test(text)) return CJK;
  WORD_CHARACTER.lastIndex = index;
  return WORD_CHARACTER.test(text) ? WORD : OTHER;
}

function countWordsAndCjk(text: string): { words: number; cjk: number } {
  let words = 0;
  let cjk = 0;
  let previous = OTHER;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let kind: number;
    if (unit < 0x80) {
      // ASCII, most of most texts, without a table look-up.
      kind =
        (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x30 && unit <= 0x39)
          ? WORD
          : OTHER;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      // An astral character (CJK extensions, emoji, ...): rare, so tested in place, not cached.
      kind = classAt(text, i);
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      kind = OTHER; // a lone surrogate is no character
    } else {
      kind = bmpClass[unit] ?? OTHER;
      if (kind === 0) {
        kind = classAt(text, i);
        bmpClass[unit] = kind;
      }
    }
    if (kind === CJK) cjk++;
    else if (kind === WORD && previous !== WORD) words++;
    previous = kind;
  }
  return { words, cjk };
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
