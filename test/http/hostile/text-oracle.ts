/**
 * What api.md says about a text, written independently of the domain code so the tests can
 * catch it being wrong: lengths in code points, no NUL, no unpaired surrogate.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type TextProblem = 'too long' | 'NUL' | 'lone surrogate' | 'empty';

/** The reason words the API uses for each problem. */
export const REASON: Record<TextProblem, RegExp> = {
  'too long': /^must be at most \d+ characters$/,
  NUL: /^must not contain the NUL character \(U\+0000\)$/,
  'lone surrogate': /^must not contain unpaired UTF-16 surrogates$/,
  empty: /^must not be empty/,
};

export function textProblem(text: string, rules: { max?: number; nonEmpty?: boolean }): TextProblem | null {
  if (rules.nonEmpty && text.length === 0) return 'empty';
  if (rules.max !== undefined && [...text].length > rules.max) return 'too long';
  if (text.includes('\u0000')) return 'NUL';
  if (LONE_SURROGATE.test(text)) return 'lone surrogate';
  return null;
}

export interface ArticleTexts {
  title: string | null;
  description: string | undefined;
  content: string;
  tagName: string;
}

/** The first field the API must reject, in the order it checks them, or null when all are storable. */
export function firstRejectedField(texts: ArticleTexts): { field: string; problem: TextProblem } | null {
  const checks: [string, string | null | undefined, { max?: number; nonEmpty?: boolean }][] = [
    ['title', texts.title, { max: 200 }],
    ['description', texts.description, { max: 1000 }],
    ['content', texts.content, { nonEmpty: true }],
    ['tag[0].name', texts.tagName.trim(), { max: 64, nonEmpty: true }],
  ];
  for (const [field, text, rules] of checks) {
    if (text === null || text === undefined) continue;
    const problem = textProblem(text, rules);
    if (problem) return { field, problem };
  }
  return null;
}

/** Byte for byte: the same UTF-16 string, hence the same UTF-8 bytes. */
export function sameBytes(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return a === b;
  return a === b && Buffer.from(a, 'utf8').equals(Buffer.from(b, 'utf8'));
}
