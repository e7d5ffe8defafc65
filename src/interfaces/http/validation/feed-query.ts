import { z } from 'zod';
import { listArticlesQuery } from './list-query';

const { tag, category, featured, author } = listArticlesQuery.shape;

/** A feed's filters, checked as a list's are; any other parameter is ignored. */
export const feedQuery = z.object({ tag, category, featured, author });

export type FeedQuery = z.output<typeof feedQuery>;

/** The validators of a conditional GET that also honours If-Modified-Since. */
export const feedConditionHeaders = z.object({
  'If-None-Match': z.string().optional().meta({
    description: 'The ETag of the feed as you have it: while it is still current, the answer is 304 with no body',
    example: '"q0bI8T6mT0uLsQ8l0Z5Hfw"',
  }),
  'If-Modified-Since': z
    .string()
    .optional()
    .meta({
      description:
        'The Last-Modified of the feed as you have it. Without If-None-Match, the answer is 304 while nothing ' +
        'changed since; a value that is not an HTTP date is ignored',
      example: 'Fri, 27 Nov 2026 09:30:00 GMT',
    }),
});

export type FeedConditionHeaders = z.output<typeof feedConditionHeaders>;
