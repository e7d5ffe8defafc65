import { z } from 'zod';
import { ARTICLE_RULES, TERM_RULES, type TermReferenceInput } from '../../../domain';
import { toValidationError } from './describe-zod-issue';
import { decimalIntegerPattern, STORABLE_TEXT, trimmedTextPattern } from './documented-patterns';

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

const articleFields = {
  title: text({ maxLength: ARTICLE_RULES.titleMaxLength }).nullable().optional().meta({ example: 'Hello' }),
  description: text({ maxLength: ARTICLE_RULES.descriptionMaxLength }).optional().meta({ example: 'A first post' }),
  content: text({ minLength: 1 }).meta({ example: 'First post' }),
  visible: z.boolean().optional().meta({ example: true }),
  tag: termReferences.optional(),
  category: termReferences.optional(),
};

export const createArticleBody = z.strictObject(articleFields).meta({
  id: 'CreateArticleBody',
  example: { title: 'Hello', content: 'First post', tag: [{ name: 'TypeScript' }], category: [{ name: 'dev' }] },
});

export const updateArticleBody = z
  .strictObject({
    id: articleId,
    ...articleFields,
    content: articleFields.content.optional(),
  })
  .meta({
    id: 'UpdateArticleBody',
    description: 'Fields left out keep their value; tag and category replace the links',
    example: { id: 1, title: 'Hello again', visible: false },
  });

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
