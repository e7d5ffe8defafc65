import { z } from 'zod';
import {
  ARTICLE_CHANGED,
  entityTag,
  KEY_IN_PROGRESS,
  KEY_REUSED,
  listEntityTag,
  NO_SUCH_ARTICLE,
  NO_SUCH_REVISION,
  nextPage,
  nextRevisions,
  replayed,
  SLUG_TAKEN,
  WRITE_PATH_READ,
} from './article-route-answers';
import type { ArticleController } from './controllers/article-controller';
import type { FeedController } from './controllers/feed-controller';
import type { HealthController } from './controllers/health-controller';
import type { KeyController } from './controllers/key-controller';
import type { SeedController } from './controllers/seed-controller';
import type { TermController } from './controllers/term-controller';
import type { WebhookController } from './controllers/webhook-controller';
import { keyRouteTable } from './key-routes';
import { articleJson, revisionJson, termJson } from './presenters';
import { defineRoute, type RouteDefinition } from './route-definition';
import {
  articlePathParams,
  articleSlugPathParams,
  createArticleBody,
  deleteArticleBody,
  idempotencyKeyHeaders,
  ifMatchHeaders,
  ifNoneMatchHeaders,
  restoreArticleBody,
  updateArticleBody,
} from './validation/article-schemas';
import { listArticlesQuery } from './validation/list-query';
import { revisionsQuery } from './validation/revisions-query';
import { webhookRouteTable } from './webhook-routes';

export interface HttpControllers {
  articles: ArticleController;
  seed: SeedController;
  terms: TermController;
  health: HealthController;
  keys: KeyController;
  feeds: FeedController;
  webhooks: WebhookController;
}

export interface RouteOptions {
  seedEnabled: boolean;
}

/** What an earlier slug answers with its 301. */
const movedArticle = z
  .object({
    id: articleJson.shape.id,
    slug: articleJson.shape.slug.meta({ description: "The article's current slug", example: 'hello-world' }),
  })
  .meta({ id: 'MovedArticle', example: { id: 1, slug: 'hello-world' } });

/** Every wrapped route of the API. Literal paths come before `/article/:id`. */
export function apiRouteTable(
  { articles, seed, terms, keys, webhooks }: HttpControllers,
  options: RouteOptions,
): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/article/create',
      operationId: 'createArticle',
      group: 'Articles',
      summary: 'Create an article',
      description:
        'Creates an article. Tags and categories are linked by name (found or created) or by id (must exist). ' +
        'Published now unless `visible: false` (a draft) or `publishedAt` (a past date publishes with it, a future ' +
        'one schedules); its slug is made from the title unless given. ' +
        'With Idempotency-Key, a retry of the same create answers the article created first instead of a second one.',
      write: true,
      body: createArticleBody,
      headers: idempotencyKeyHeaders,
      status: 201,
      data: articleJson,
      responseHeaders: { ETag: entityTag(true), 'Idempotent-Replayed': replayed },
      failures: [KEY_IN_PROGRESS, KEY_REUSED, SLUG_TAKEN],
      handle: ({ body, headers, actor }) => articles.create(body, headers, actor),
    }),
    defineRoute({
      method: 'post',
      path: '/article/update',
      operationId: 'updateArticle',
      group: 'Articles',
      summary: 'Change the fields sent',
      description:
        'Changes the fields present in the body and refreshes updatedAt; `tag` and `category`, when present, ' +
        'replace the links. `visible: true` publishes a draft or scheduled article now, `false` makes it a draft, ' +
        '`publishedAt` sets the time. A new `slug` keeps the old one leading here (301). ' +
        'With If-Match, only while the article is still as read.',
      write: true,
      body: updateArticleBody,
      headers: ifMatchHeaders,
      status: 200,
      data: articleJson,
      responseHeaders: { ETag: entityTag(true) },
      failures: [NO_SUCH_ARTICLE, ARTICLE_CHANGED, SLUG_TAKEN],
      handle: ({ body, headers, actor }) => articles.update(body, headers, actor),
    }),
    defineRoute({
      method: 'post',
      path: '/article/delete',
      operationId: 'deleteArticle',
      group: 'Articles',
      summary: 'Delete an article',
      description:
        'Deletes the article and its links (its tags and categories stay) and answers it as it was. ' +
        'With If-Match, only while the article is still as read.',
      write: true,
      body: deleteArticleBody,
      headers: ifMatchHeaders,
      status: 200,
      data: articleJson,
      failures: [NO_SUCH_ARTICLE, ARTICLE_CHANGED],
      handle: ({ body, headers, actor }) => articles.delete(body, headers, actor),
    }),
    defineRoute({
      method: 'post',
      path: '/article/restore',
      operationId: 'restoreArticle',
      group: 'Articles',
      summary: 'Make an article what one of its revisions holds',
      description:
        'Restores the fields, publishedAt, slug, featured and links a revision holds; createdAt stays, updatedAt is ' +
        'now (a new ETag). The state it replaces becomes a new revision. A deleted article comes back with its id. ' +
        'With If-Match, only while the article is still as read.',
      write: true,
      body: restoreArticleBody,
      headers: ifMatchHeaders,
      status: 200,
      data: articleJson,
      responseHeaders: { ETag: entityTag(true) },
      failures: [NO_SUCH_REVISION, SLUG_TAKEN, ARTICLE_CHANGED],
      handle: ({ body, headers, actor }) => articles.restore(body, headers, actor),
    }),
    defineRoute({
      method: 'get',
      path: '/article',
      operationId: 'listArticles',
      group: 'Articles',
      summary: 'List the visible articles',
      description:
        'The articles published at the moment of the request (a scheduled one from its publishedAt on), by id ' +
        'ascending or newest first (`order=newest`), optionally filtered by tag and category name and `featured`, and ' +
        'searched with `q` (a case-insensitive substring of the title, description or content). With `limit`, one page, ' +
        'and a `Link` header to the next when the page is full; without, every matching article, streamed. ' +
        'Each parameter at most once, its value percent-encoded UTF-8 (otherwise a 400 names it); ' +
        'other parameters are ignored.',
      write: false,
      query: listArticlesQuery,
      headers: ifNoneMatchHeaders,
      status: 200,
      data: articleJson.array(),
      responseHeaders: { ETag: listEntityTag, Link: nextPage },
      notModified: true,
      handle: ({ query, headers }) => articles.list(query, headers),
    }),
    defineRoute({
      method: 'get',
      path: '/article/slug/:slug',
      operationId: 'getArticleBySlug',
      group: 'Articles',
      summary: 'Read one article by its slug',
      description:
        'The article whose slug this is, whatever its status, with its ETag. An earlier slug of an article ' +
        'answers 301 to its current one.',
      write: false,
      params: articleSlugPathParams,
      headers: ifNoneMatchHeaders,
      status: 200,
      data: articleJson,
      responseHeaders: { ETag: entityTag(true) },
      notModified: true,
      movedPermanently: {
        when: 'An earlier slug of the article: `Location` is its current slug, `data` its id and slug',
        data: movedArticle,
      },
      failures: [{ status: 404, when: 'no article has, or had, this slug' }],
      handle: ({ params, headers, actor }) => articles.getBySlug(params.slug, headers, actor),
    }),
    defineRoute({
      method: 'get',
      path: '/article/:id/revisions',
      operationId: 'listArticleRevisions',
      group: 'Articles',
      summary: "An article's revisions, newest first",
      description:
        'Each update, delete and restore keeps the article as it was just before: `{revision, replacedAt, article}`, ' +
        'newest first, for REVISION_RETENTION_DAYS. A deleted article answers too. With `limit`, one page, and a ' +
        '`Link` header to the next when it is full.',
      write: false,
      params: articlePathParams,
      query: revisionsQuery,
      status: 200,
      data: revisionJson.array(),
      responseHeaders: { Link: nextRevisions },
      failures: [{ status: 404, when: 'no article has, or had, this id' }],
      handle: ({ params, query, actor }) => articles.revisions(params.id, query, actor),
    }),
    defineRoute({
      method: 'get',
      path: '/article/:id',
      operationId: 'getArticle',
      group: 'Articles',
      summary: 'Read one article (null if none)',
      description: 'One article whatever its visibility, with its ETag; `data` is null when no article has this id.',
      write: false,
      params: articlePathParams,
      headers: ifNoneMatchHeaders,
      status: 200,
      data: articleJson.nullable(),
      responseHeaders: { ETag: entityTag(false) },
      notModified: true,
      failures: [WRITE_PATH_READ],
      handle: ({ params, headers, actor }) => articles.getOne(params.id, headers, actor),
    }),
    ...(options.seedEnabled
      ? [
          defineRoute({
            method: 'get',
            path: '/seed/create',
            operationId: 'seedArticles',
            group: 'Articles',
            summary: 'Add the three demo articles',
            description: 'Creates Article 1, 2 and 3, then answers what GET /article answers.',
            write: true,
            status: 200,
            data: articleJson.array(),
            handle: ({ actor }) => seed.create(actor),
          }),
        ]
      : []),
    defineRoute({
      method: 'get',
      path: '/tag',
      operationId: 'listTags',
      group: 'Tags and categories',
      summary: 'List the tags',
      description: 'Every tag, by name in code-point order, whether or not an article links it.',
      write: false,
      status: 200,
      data: termJson.array(),
      handle: () => terms.listTags(),
    }),
    defineRoute({
      method: 'get',
      path: '/category',
      operationId: 'listCategories',
      group: 'Tags and categories',
      summary: 'List the categories',
      description: 'Every category, by name in code-point order, whether or not an article links it.',
      write: false,
      status: 200,
      data: termJson.array(),
      handle: () => terms.listCategories(),
    }),
    ...keyRouteTable(keys),
    ...webhookRouteTable(webhooks),
  ];
}
