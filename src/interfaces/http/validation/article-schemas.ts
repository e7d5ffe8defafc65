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

export const createArticleBody = z.strictObject(articleFields);

export const updateArticleBody = z.strictObject({
  id: articleId,
  ...articleFields,
  content: articleFields.content.optional(),
});

/** Decimal digits without a leading zero, as the contract spells a path id. */
const PATH_ID = /^[1-9][0-9]*$/;

export function parsePathId(raw: string): number | null {
  if (!PATH_ID.test(raw)) return null;
  const id = Number(raw);
  return id <= ARTICLE_RULES.maxId ? id : null;
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw toValidationError(result.error);
  return result.data;
}
