import { z } from 'zod';
import { ARTICLE_RULES, SLUG_PATTERN, SLUG_RULES, TERM_RULES, type TermReferenceInput } from '../../../domain';
import { toValidationError } from './describe-zod-issue';
import {
  decimalIntegerPattern,
  STORABLE_TEXT,
  trimmedTextPattern,
  YEAR_ZERO_BEFORE_ITS_LAST_DAY,
} from './documented-patterns';

/**
 * The shapes a client may send. Text rules (lengths in code points, NUL, trimming) belong to the
 * domain and are checked there; these schemas check structure and types, and state the text
 * rules in the OpenAPI document (`override`), so that the document says all the service checks.
 */
const text = (limits: { minLength?: number; maxLength?: number }) =>
  z.string().meta({ override: { ...limits, pattern: STORABLE_TEXT } });

const termReferenceFields = {
  id: text({ minLength: 1, maxLength: TERM_RULES.idMaxLength }).meta({
    description: 'An existing tag or category',
    example: 'uln4q7lk60tqcd7iftk4jvl7',
  }),
  // 1 to 64 code points once trimmed, as names are when written.
  name: z.string().meta({
    description: 'Found, or created when new (trimmed; 1 to 64 characters once trimmed)',
    example: 'TypeScript',
    override: { pattern: trimmedTextPattern(TERM_RULES.nameMaxLength) },
  }),
  description: text({ maxLength: TERM_RULES.descriptionMaxLength }).nullable().meta({
    description: 'Only with `name`: the description of a tag or category created now',
    example: 'Typed JavaScript',
  }),
};

/**
 * "Exactly one of id or name", as JSON Schema says it: one branch per way of naming a term.
 * The document's own words for what superRefine checks below.
 */
function documentTermReferenceAsOneOf({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  const { id, name, description } = jsonSchema.properties as Record<string, unknown>;
  delete jsonSchema.type;
  delete jsonSchema.properties;
  delete jsonSchema.additionalProperties;
  jsonSchema.oneOf = [
    { type: 'object', title: 'By id', required: ['id'], properties: { id }, additionalProperties: false },
    {
      type: 'object',
      title: 'By name',
      required: ['name'],
      properties: { name, description },
      additionalProperties: false,
    },
  ];
}

const termReference = z
  .strictObject({
    id: termReferenceFields.id.optional(),
    name: termReferenceFields.name.optional(),
    description: termReferenceFields.description.optional(),
  })
  .meta({
    id: 'TermReference',
    description: 'A tag or category: an existing one by `id`, or by `name` (found, or created with `description`)',
    example: { name: 'TypeScript', description: 'Typed JavaScript' },
    override: documentTermReferenceAsOneOf,
  })
  .superRefine((reference, context) => {
    if ((reference.id === undefined) === (reference.name === undefined)) {
      context.addIssue({ code: 'custom', message: 'must have exactly one of "id" or "name"' });
    } else if (reference.id !== undefined && reference.description !== undefined) {
      context.addIssue({ code: 'custom', message: '"description" goes only with "name"' });
    }
  })
  .transform(
    (reference): TermReferenceInput =>
      reference.id !== undefined
        ? { id: reference.id }
        : { name: reference.name ?? '', description: reference.description },
  );

const termReferences = z.array(termReference).max(TERM_RULES.maxReferencesPerArticle);

export const articleId = z.number().int().min(1).max(ARTICLE_RULES.maxId).meta({ example: 1 });

/**
 * An instant: ISO 8601 with `Z` or an offset, read to the millisecond (finer digits are dropped),
 * from year 1 (PostgreSQL has no year 0) to 9999 in UTC (an answer's ISO text has four digits).
 * The year in UTC depends on the offset, which no pattern of reasonable size compares with the
 * time: the document refuses the year 0000 it can, and says the rest in words.
 */
const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time with Z or an offset, such as 2026-12-01T09:00:00Z' })
  .transform((raw, context) => {
    const at = new Date(raw);
    const year = at.getUTCFullYear();
    if (year >= 1 && year <= 9999) return at;
    context.addIssue({ code: 'custom', message: 'must be from year 1 to 9999 in UTC', input: raw });
    return z.NEVER;
  })
  .meta({ override: { type: 'string', format: 'date-time', not: { pattern: YEAR_ZERO_BEFORE_ITS_LAST_DAY } } });

const articleFields = {
  title: text({ maxLength: ARTICLE_RULES.titleMaxLength }).nullable().optional().meta({ example: 'Hello' }),
  description: text({ maxLength: ARTICLE_RULES.descriptionMaxLength }).optional().meta({ example: 'A first post' }),
  content: text({ minLength: 1 }).meta({ example: 'First post' }),
  visible: z.boolean().optional().meta({
    description: 'true: published now (a published article stays as it is); false: a draft. Not with `publishedAt`',
    example: true,
  }),
  publishedAt: instant
    .nullable()
    .optional()
    .meta({
      description:
        'When it is published, from year 1 to 9999 in UTC: a past time publishes with that date, a future one ' +
        'schedules, null makes a draft. Not with `visible`',
      example: '2026-12-01T09:00:00.000Z',
    }),
  featured: z.boolean().optional().meta({ example: false }),
  // Checked by the domain (checkSlug); the pattern is stated here for the document.
  slug: z
    .string()
    .optional()
    .meta({
      description: "Absent on create: made from the title. Another current article's slug is a 409",
      example: 'hello-world',
      override: { type: 'string', minLength: 1, maxLength: SLUG_RULES.maxLength, pattern: SLUG_PATTERN.source },
    }),
  tag: termReferences.optional(),
  category: termReferences.optional(),
};

/** `visible` and `publishedAt` exclude each other (checked by the domain: publication.ts). */
const NOT_VISIBLE_AND_PUBLISHED_AT = { not: { required: ['visible', 'publishedAt'] } };

export const createArticleBody = z.strictObject(articleFields).meta({
  id: 'CreateArticleBody',
  description: 'At most one of `visible` and `publishedAt`',
  example: { title: 'Hello', content: 'First post', tag: [{ name: 'TypeScript' }], category: [{ name: 'dev' }] },
  override: NOT_VISIBLE_AND_PUBLISHED_AT,
});

export const updateArticleBody = z
  .strictObject({
    id: articleId,
    ...articleFields,
    content: articleFields.content.optional(),
  })
  .meta({
    id: 'UpdateArticleBody',
    description:
      'Fields left out keep their value; tag and category replace the links. ' +
      'At most one of `visible` and `publishedAt`',
    example: { id: 1, title: 'Hello again', visible: false },
    override: NOT_VISIBLE_AND_PUBLISHED_AT,
  });

/** A revision number: a positive integer that fits 32 bits, like an id. */
export const revisionNumber = z.number().int().min(1).max(ARTICLE_RULES.maxId).meta({ example: 2 });

export const restoreArticleBody = z
  .strictObject({ id: articleId, revision: revisionNumber })
  .meta({ id: 'RestoreArticleBody', example: { id: 1, revision: 2 } });

export const deleteArticleBody = z
  .strictObject({ id: articleId })
  .meta({ id: 'DeleteArticleBody', example: { id: 1 } });

/** The conditional writes' header; any value is accepted (an unreadable one never matches). */
export const ifMatchHeaders = z.object({
  'If-Match': z
    .string()
    .optional()
    .meta({
      description:
        'Write only if the article is still as read: one or more entity tags from its `ETag` (comma-separated), ' +
        'or `*`. A weak tag (`W/"…"`) or the tag of another article never matches. Absent: no check.',
      example: '"1-3"',
    }),
});

/** Visible ASCII, 1 to 255 characters: the Idempotency-Key header's values. */
const IDEMPOTENCY_KEY = /^[!-~]{1,255}$/;

/** The create's header: a key that makes retries of one create make one article. */
export const idempotencyKeyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(IDEMPOTENCY_KEY, { error: 'must be 1 to 255 visible ASCII characters (! to ~)' })
    .optional()
    .meta({
      description:
        'Makes the create safe to retry: within the retention (24 h by default), the same body under the same key ' +
        'answers the article created the first time (header `Idempotent-Replayed: true`) and writes nothing; ' +
        'another body under it is 422; while the first request runs, 409. 1 to 255 visible ASCII characters.',
      example: '4f1c2a9e-6b0d-4c8e-9a51-0d3f7e2b8c61',
    }),
});

export type CreateArticleBody = z.output<typeof createArticleBody>;
export type UpdateArticleBody = z.output<typeof updateArticleBody>;
export type DeleteArticleBody = z.output<typeof deleteArticleBody>;
export type RestoreArticleBody = z.output<typeof restoreArticleBody>;
/** A conditional GET (RFC 9110 §13.1.2): evaluated by the controller against the answer's ETag. */
export const ifNoneMatchHeaders = z.object({
  'If-None-Match': z.string().optional().meta({
    description: 'The ETag of the answer as you have it: while it is still current, the answer is 304 with no body',
    example: '"1-2"',
  }),
});

export type IfMatchHeaders = z.output<typeof ifMatchHeaders>;
export type IfNoneMatchHeaders = z.output<typeof ifNoneMatchHeaders>;
export type IdempotencyKeyHeaders = z.output<typeof idempotencyKeyHeaders>;

/** Decimal digits without a leading zero, as the contract spells a path id. */
const PATH_ID = /^[1-9][0-9]*$/;

export function parsePathId(raw: string): number | null {
  if (!PATH_ID.test(raw)) return null;
  const id = Number(raw);
  return id <= ARTICLE_RULES.maxId ? id : null;
}

/** Why `raw` is not an article id. A client's id is echoed back, but never more than 32 characters of it. */
export function describeBadArticleId(raw: string): string {
  const shown = raw.length > 32 ? `${raw.slice(0, 32)}…` : raw;
  return `"${shown}" is not an article id (a positive integer up to ${ARTICLE_RULES.maxId})`;
}

export const articleSlugPathParams = z.object({
  slug: z.string().meta({
    description: 'A current or earlier slug of an article',
    override: {
      type: 'string',
      minLength: 1,
      maxLength: SLUG_RULES.maxLength,
      pattern: SLUG_PATTERN.source,
      example: 'hello-world',
    },
  }),
});

export const articlePathParams = z.object({
  id: z
    .string()
    // Text in the URL: documented as the decimal text PATH_ID and maxId accept (validators would coerce an integer).
    .meta({
      description: `An article id, 1 to ${ARTICLE_RULES.maxId}, in decimal without sign or leading zero`,
      override: { pattern: decimalIntegerPattern(ARTICLE_RULES.maxId), example: '1' },
    })
    .transform((raw, context) => {
      const id = parsePathId(raw);
      if (id !== null) return id;
      context.addIssue({ code: 'custom', message: describeBadArticleId(raw) });
      return z.NEVER;
    }),
});

export function parseInput<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw toValidationError(result.error);
  return result.data;
}
