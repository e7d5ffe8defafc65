import { z } from 'zod';
import { ARTICLE_RULES } from '../../../domain';
import { decimalIntegerPattern } from './documented-patterns';
import { MAX_PAGE_LIMIT, once, pageLimit } from './list-query';

/** A revision number in the query: decimal, no sign or leading zero, up to 2147483647. */
const revisionNumber = z.string().transform((raw, context) => {
  const value = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value <= ARTICLE_RULES.maxId) return value;
  context.addIssue({ code: 'custom', message: `must be a revision number (1 to ${ARTICLE_RULES.maxId})`, input: raw });
  return z.NEVER;
});

/** GET /article/:id/revisions' parameters; any other parameter is ignored. */
export const revisionsQuery = z.object({
  limit: once(pageLimit, {
    description: `Answer a page of at most this many revisions (1 to ${MAX_PAGE_LIMIT}); without it, every one kept`,
    schema: { type: 'string', pattern: decimalIntegerPattern(MAX_PAGE_LIMIT), example: '20' },
  }),
  before: once(revisionNumber, {
    description: 'Only revisions numbered below this one: the last revision of the previous page',
    schema: { type: 'string', pattern: decimalIntegerPattern(ARTICLE_RULES.maxId), example: '21' },
  }),
});

export type RevisionsQuery = z.output<typeof revisionsQuery>;
