import { xmlText } from '../../../src/interfaces/http/feeds/xml-text';

/** XML 1.0's Char production, written out from the specification, to judge xmlText by. */
function isXmlChar(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  );
}

describe('xmlText', () => {
  it('replaces every C0 control XML cannot carry with U+FFFD, and writes tab, newline and carriage return as references', () => {
    for (let codePoint = 0; codePoint < 0x20; codePoint++) {
      const text = `a${String.fromCharCode(codePoint)}b`;
      expect(xmlText(text)).toBe(isXmlChar(codePoint) ? `a&#${codePoint};b` : 'a\uFFFDb');
    }
  });

  it('replaces U+FFFE, U+FFFF and lone surrogates, and keeps surrogate pairs (emoji)', () => {
    expect(xmlText('\uFFFE\uFFFF')).toBe('\uFFFD\uFFFD');
    expect(xmlText('x\uD83Dy')).toBe('x\uFFFDy');
    expect(xmlText('x\uDE00y')).toBe('x\uFFFDy');
    expect(xmlText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
    expect(xmlText('😀 مرحبا עברית')).toBe('😀 مرحبا עברית');
  });

  it('escapes markup, so that `]]>` and `<script>` stay text', () => {
    expect(xmlText(`]]><script>alert("x" & 'y')</script>`)).toBe(
      ']]&gt;&lt;script&gt;alert(&quot;x&quot; &amp; &apos;y&apos;)&lt;/script&gt;',
    );
  });

  it('leaves only characters XML can carry, whatever the input', () => {
    let every = '';
    for (let unit = 0; unit <= 0xffff; unit++) every += String.fromCharCode(unit);
    for (const character of xmlText(every)) expect(isXmlChar(character.codePointAt(0) ?? -1)).toBe(true);
  });
});
