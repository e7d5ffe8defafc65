import { z } from 'zod';
import {
  ARTICLE_RULES,
  codePointLength,
  SLUG_PATTERN,
  SLUG_RULES,
  TERM_RULES,
  unstorableTextReason,
} from '../../../domain';
import { decodeNewestCursor } from '../newest-cursor';
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
export function once<T extends z.ZodType>(
  value: T,
  documented: { description: string; schema: Record<string, unknown> },
) {
  return z
    .preprocess((raw, context) => {
      if (!Array.isArray(raw)) return raw;
      context.addIssue({ code: 'custom', message: 'must be given at most once', input: raw });
      return z.NEVER;
    }, value)
    .optional()
    .meta({ override: documented.schema, description: documented.description });
}

export const pageLimit = z.string().transform((raw, context) => {
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

/** One of the words given, exactly. */
const oneOf = <const T extends readonly string[]>(words: T) =>
  z.string().transform((raw, context) => {
    if ((words as readonly string[]).includes(raw)) return raw as T[number];
    context.addIssue({
      code: 'custom',
      message: `must be ${words.map((word) => `"${word}"`).join(' or ')}`,
      input: raw,
    });
    return z.NEVER;
  });

const featured = oneOf(['true', 'false'] as const).transform((word) => word === 'true');

/** An author's slug, by the article slug rule. */
const authorSlug = z.string().transform((raw, context) => {
  if (SLUG_PATTERN.test(raw) && raw.length <= SLUG_RULES.maxLength) return raw;
  context.addIssue({ code: 'custom', message: 'must be an author slug (a-z, 0-9 and single hyphens)', input: raw });
  return z.NEVER;
});

const cursor = z.string().transform((raw, context) => {
  const position = decodeNewestCursor(raw);
  if (position) return position;
  context.addIssue({
    code: 'custom',
    message: "is not a cursor this service gave (take it from the previous page's Link header)",
    input: raw,
  });
  return z.NEVER;
});

/** GET /article's parameters; any other parameter is ignored. */
export const listArticlesQuery = z
  .object({
    order: once(oneOf(['id', 'newest'] as const), {
      description:
        '`id` (the default): by id ascending, pages by `after`. `newest`: by publishedAt descending, then id ' +
        "descending, pages by the `cursor` of the previous page's `Link`",
      // The examples make one request the service takes (Swagger UI's "Try it out" sends them all):
      // `after`'s goes with `order=id`, and a cursor, opaque, has none.
      schema: { type: 'string', enum: ['id', 'newest'], example: 'id' },
    }),
    cursor: once(cursor, {
      description:
        "Only with `order=newest`: where the next page starts, as the previous page's `Link` gives it. Opaque; " +
        'one this service did not give is refused',
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    }),
    limit: once(pageLimit, {
      description:
        `Answer a page of at most this many articles (1 to ${MAX_PAGE_LIMIT}, in decimal without sign or ` +
        'leading zero); without it, every article',
      schema: { type: 'string', pattern: decimalIntegerPattern(MAX_PAGE_LIMIT), example: '20' },
    }),
    after: once(after, {
      description:
        'Only articles with a greater id: the id of the last article of the previous page ' +
        `(1 to ${ARTICLE_RULES.maxId}, in decimal without sign or leading zero). Not with \`order=newest\``,
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
    featured: once(featured, {
      description: 'Only featured articles (`true`) or only the others (`false`)',
      schema: { type: 'string', enum: ['true', 'false'], example: 'true' },
    }),
    author: once(authorSlug, {
      description: "Only articles of the author with this slug (an author's `slug`; an unknown one matches nothing)",
      schema: {
        type: 'string',
        pattern: SLUG_PATTERN.source,
        maxLength: SLUG_RULES.maxLength,
        example: 'ada-lovelace',
      },
    }),
    q: once(searchQuery, {
      description:
        'Only articles whose title, description or content contains this text, ignoring case ' +
        `(JavaScript's toLowerCase); trimmed, then 1 to ${MAX_QUERY_LENGTH} characters; every character is literal, ` +
        'inner spaces included',
      schema: { type: 'string', pattern: trimmedTextPattern(MAX_QUERY_LENGTH), example: 'typescript' },
    }),
  })
  .superRefine((query, context) => {
    // Each order pages by its own position: an id, or a cursor.
    if (query.order === 'newest' && query.after !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['after'],
        message: 'goes with order=id only; order=newest pages by cursor',
      });
    }
    if (query.order !== 'newest' && query.cursor !== undefined) {
      context.addIssue({ code: 'custom', path: ['cursor'], message: 'goes with order=newest only' });
    }
  });

export type ListArticlesQuery = z.output<typeof listArticlesQuery>;
