/**
 * Characters XML 1.0 cannot carry (its Char production) besides lone surrogates: C0 controls
 * but tab, newline and carriage return, and U+FFFE and U+FFFF.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // As references, so that XML's line-end and attribute normalisation cannot change them: a raw
  // CR reaches an XML reader as LF, and a raw tab or newline in an attribute as a space.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/**
 * Text for an XML element or attribute: every character XML cannot carry becomes U+FFFD (lone
 * surrogates by `toWellFormed`), so that a feed is well-formed whatever was stored; markup is
 * escaped, `]]>` included (no CDATA sections are written), and tab, newline and carriage return
 * are written as references, so that a reader gets them back as they were.
 */
export function xmlText(text: string): string {
  return text
    .toWellFormed()
    .replace(NOT_XML, '\uFFFD')
    .replace(/[&<>"'\t\n\r]/g, (character) => ESCAPES[character] ?? character);
}
