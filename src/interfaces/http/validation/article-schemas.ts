import { z } from 'zod';
import { ARTICLE_RULES, TERM_RULES, type TermReferenceInput } from '../../../domain';
import { toValidationError } from './describe-zod-issue';

/**
 * The shapes a client may send. Text rules (lengths in code points, NUL, defaults) belong to
 * the domain and are checked there; these schemas check structure and types.
 */
const termReference = z
  .strictObject({
    id: z.string().optional(),
    name: z.string().optional(),
    description: z.string().nullable().optional(),
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

export const articleId = z.number().int().min(1).max(ARTICLE_RULES.maxId);

const articleFields = {
  title: z.string().nullable().optional(),
  description: z.string().optional(),
  content: z.string(),
  visible: z.boolean().optional(),
  tag: termReferences.optional(),
  category: termReferences.optional(),
};

export const createArticleBody = z.strictObject(articleFields).meta({ id: 'CreateArticleBody' });

export const updateArticleBody = z
  .strictObject({
    id: articleId,
    ...articleFields,
    content: articleFields.content.optional(),
  })
  .meta({
    id: 'UpdateArticleBody',
    description: 'Fields left out keep their value; tag and category replace the links',
  });

export type CreateArticleBody = z.output<typeof createArticleBody>;
export type UpdateArticleBody = z.output<typeof updateArticleBody>;

/** Decimal digits without a leading zero, as the contract spells a path id. */
const PATH_ID = /^[1-9][0-9]*$/;

export function parsePathId(raw: string): number | null {
  if (!PATH_ID.test(raw)) return null;
  const id = Number(raw);
  return id <= ARTICLE_RULES.maxId ? id : null;
}

export const articlePathParams = z.object({
  id: z
    .string()
    .meta({ pattern: PATH_ID.source, description: `An article id, 1 to ${ARTICLE_RULES.maxId}`, example: '1' })
    .transform((raw, context) => {
      const id = parsePathId(raw);
      if (id !== null) return id;
      // A client's id is echoed back, but never more than 32 characters of it.
      const shown = raw.length > 32 ? `${raw.slice(0, 32)}…` : raw;
      context.addIssue({
        code: 'custom',
        message: `"${shown}" is not an article id (a positive integer up to ${ARTICLE_RULES.maxId})`,
      });
      return z.NEVER;
    }),
});

export function parseInput<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw toValidationError(result.error);
  return result.data;
}
