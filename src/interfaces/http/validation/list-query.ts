import { z } from 'zod';
import { ARTICLE_RULES, codePointLength, TERM_RULES, unstorableTextReason } from '../../../domain';
import { describeBadArticleId, parsePathId } from './article-schemas';
import { decimalIntegerPattern, trimmedTextPattern } from './documented-patterns';

/** The most articles one page may hold. */
export const MAX_PAGE_LIMIT = 100;

/**
 * A query parameter given at most once: the query parser (query-parameters.ts) turns `?a=1&a=2`
 * into an array, which is a 400 naming the parameter. `documented` is what the OpenAPI document
 * shows: the text the parser accepts, as a pattern (a validator given `integer` would coerce, and
 * accept `01`, `1e2` and `+5`).
 */
function once<T extends z.ZodType>(value: T, documented: { description: string; schema: Record<string, unknown> }) {
  return z
    .preprocess((raw, context) => {
      if (!Array.isArray(raw)) return raw;
      context.addIssue({ code: 'custom', message: 'must be given at most once', input: raw });
      return z.NEVER;
    }, value)
    .optional()
    .meta({ override: documented.schema, description: documented.description });
}

const limit = z.string().transform((raw, context) => {
  const value = /^[1-9][0-9]{0,2}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value <= MAX_PAGE_LIMIT) return value;
  context.addIssue({ code: 'custom', message: `must be an integer from 1 to ${MAX_PAGE_LIMIT}`, input: raw });
  return z.NEVER;
});

const after = z.string().transform((raw, context) => {
  const id = parsePathId(raw);
  if (id !== null) return id;
  context.addIssue({ code: 'custom', message: describeBadArticleId(raw), input: raw });
  return z.NEVER;
});

/** A tag or category name, trimmed as names are when they are written. */
const termName = z.string().transform((raw, context) => {
  const name = raw.trim();
  const length = codePointLength(name);
  const problem =
    length < 1 || length > TERM_RULES.nameMaxLength
      ? `must be 1 to ${TERM_RULES.nameMaxLength} characters after trimming`
      : unstorableTextReason(name);
  if (problem === null) return name;
  context.addIssue({ code: 'custom', message: problem, input: raw });
  return z.NEVER;
});

/** The most code points of a search query (`q`), after trimming. */
export const MAX_QUERY_LENGTH = 100;

/** Search text: trimmed, 1..100 code points, storable (every character is then literal). */
const searchQuery = z.string().transform((raw, context) => {
  const text = raw.trim();
  const length = codePointLength(text);
  const problem =
    length < 1 || length > MAX_QUERY_LENGTH
      ? `must be 1 to ${MAX_QUERY_LENGTH} characters after trimming`
      : unstorableTextReason(text);
  if (problem === null) return text;
  context.addIssue({ code: 'custom', message: problem, input: raw });
  return z.NEVER;
});

/** GET /article's parameters; any other parameter is ignored. */
export const listArticlesQuery = z.object({
  limit: once(limit, {
    description:
      `Answer a page of at most this many articles (1 to ${MAX_PAGE_LIMIT}, in decimal without sign or ` +
      'leading zero); without it, every article',
    schema: { type: 'string', pattern: decimalIntegerPattern(MAX_PAGE_LIMIT), example: '20' },
  }),
  after: once(after, {
    description:
      'Only articles with a greater id: the id of the last article of the previous page ' +
      `(1 to ${ARTICLE_RULES.maxId}, in decimal without sign or leading zero)`,
    schema: { type: 'string', pattern: decimalIntegerPattern(ARTICLE_RULES.maxId), example: '40' },
  }),
  tag: once(termName, {
    description:
      `Only articles linked to the tag of this name (trimmed, then 1 to ${TERM_RULES.nameMaxLength} characters; ` +
      'an unknown name matches nothing)',
    schema: { type: 'string', pattern: trimmedTextPattern(TERM_RULES.nameMaxLength), example: 'TypeScript' },
  }),
  category: once(termName, {
    description: 'Only articles linked to the category of this name, trimmed like `tag`; with `tag`, to both',
    schema: { type: 'string', pattern: trimmedTextPattern(TERM_RULES.nameMaxLength), example: 'dev' },
  }),
  q: once(searchQuery, {
    description:
      'Only articles whose title, description or content contains this text, ignoring case ' +
      `(JavaScript's toLowerCase); trimmed, then 1 to ${MAX_QUERY_LENGTH} characters; every character is literal, ` +
      'inner spaces included',
    schema: { type: 'string', pattern: trimmedTextPattern(MAX_QUERY_LENGTH), example: 'typescript' },
  }),
});

export type ListArticlesQuery = z.output<typeof listArticlesQuery>;
