import type { ResponseHeader } from './route-definition';

/* What the article routes' answers say beyond their data, as the OpenAPI document shows it: their failures and headers. */

export const NO_SUCH_ARTICLE = { status: 404, when: 'no article has this id (with or without If-Match)' };
export const ARTICLE_CHANGED = {
  status: 412,
  when: 'If-Match names no current entity tag of the article; nothing written',
};
export const SLUG_TAKEN = { status: 409, when: 'another current article has the slug asked for; nothing written' };
export const NO_SUCH_REVISION = {
  status: 404,
  when: 'the article has no such revision (or never existed); nothing written',
};

export const nextRevisions: ResponseHeader = {
  description: 'Only on a full page: the URL of the next page of older revisions',
  schema: {
    type: 'string',
    pattern: '^</article/[1-9][0-9]*/revisions\\?limit=[1-9][0-9]*&before=[1-9][0-9]*>; rel="next"$',
    example: '</article/1/revisions?limit=20&before=21>; rel="next"',
  },
  required: false,
};

/** `GET /article/create` is not a read of article "create": the write routes' paths answer only POST. */
export const WRITE_PATH_READ = {
  status: 404,
  when: 'the path is a write route (`/article/create`, `/article/update`, `/article/delete`, `/article/restore`) asked with GET: an unknown route',
};

export const KEY_REUSED = { status: 422, when: 'Idempotency-Key was used for another body; nothing written' };
export const KEY_IN_PROGRESS = {
  status: 409,
  when: 'the first request with this Idempotency-Key is still being processed; nothing written, retry later',
};

export const replayed: ResponseHeader = {
  description: 'Only on a replay: the stored answer of an earlier create with this Idempotency-Key and body',
  schema: { type: 'string', const: 'true', example: 'true' },
  required: false,
};

export const entityTag = (required: boolean): ResponseHeader => ({
  description:
    "The article's entity tag: send it back in If-Match to write only if it has not changed since. " +
    'It also changes when a scheduled article is published by the arrival of its time',
  schema: { type: 'string', pattern: '^"[1-9][0-9]*-[1-9][0-9]*s?"$', example: '"1-2"' },
  required,
});

export const listEntityTag: ResponseHeader = {
  description:
    'A weak entity tag of the data the list was read from: send it back in If-None-Match to get a 304 ' +
    'while no article, tag or category has changed since',
  schema: { type: 'string', pattern: '^W/"[A-Za-z0-9_-]{22}"$', example: 'W/"3q2-7wEb0ZqSv1aKXz8pLw"' },
  required: true,
};

export const nextPage: ResponseHeader = {
  description: 'Only on a full page: the URL of the next page, with the same limit, order, filters and search',
  schema: {
    type: 'string',
    pattern:
      '^</article\\?limit=[1-9][0-9]*(&after=[1-9][0-9]*|&order=newest&cursor=[A-Za-z0-9_-]+)' +
      '(&tag=[^&>]+)?(&category=[^&>]+)?(&featured=(true|false))?(&q=[^&>]+)?>; rel="next"$',
    example: '</article?limit=20&after=40&tag=TypeScript&q=generics>; rel="next"',
  },
  required: false,
};
