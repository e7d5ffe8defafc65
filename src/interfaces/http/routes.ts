import type { ArticleController } from './controllers/article-controller';
import type { HealthController } from './controllers/health-controller';
import type { SeedController } from './controllers/seed-controller';
import type { TermController } from './controllers/term-controller';
import { articleJson, healthJson, termJson } from './presenters';
import { defineRoute, type RouteDefinition } from './route-definition';
import { articlePathParams, createArticleBody, updateArticleBody } from './validation/article-schemas';

export interface HttpControllers {
  articles: ArticleController;
  seed: SeedController;
  terms: TermController;
  health: HealthController;
}

export interface RouteOptions {
  seedEnabled: boolean;
}

const NO_SUCH_ARTICLE = { status: 404, when: 'no article has this id' };

/** Every wrapped route of the API. Literal paths come before `/article/:id`. */
export function apiRouteTable({ articles, seed, terms }: HttpControllers, options: RouteOptions): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/article/create',
      group: 'Articles',
      summary: 'Create an article',
      write: true,
      body: createArticleBody,
      status: 201,
      data: articleJson,
      handle: ({ body }) => articles.create(body),
    }),
    defineRoute({
      method: 'post',
      path: '/article/update',
      group: 'Articles',
      summary: 'Change the fields sent',
      write: true,
      body: updateArticleBody,
      status: 200,
      data: articleJson,
      failures: [NO_SUCH_ARTICLE],
      handle: ({ body }) => articles.update(body),
    }),
    defineRoute({
      method: 'get',
      path: '/article',
      group: 'Articles',
      summary: 'List the visible articles',
      write: false,
      status: 200,
      data: articleJson.array(),
      handle: () => articles.listVisible(),
    }),
    defineRoute({
      method: 'get',
      path: '/article/:id',
      group: 'Articles',
      summary: 'Read one article (null if none)',
      write: false,
      params: articlePathParams,
      status: 200,
      data: articleJson.nullable(),
      handle: ({ params }) => articles.getOne(params.id),
    }),
    ...(options.seedEnabled
      ? [
          defineRoute({
            method: 'get',
            path: '/seed/create',
            group: 'Articles',
            summary: 'Add the three demo articles',
            write: true,
            status: 200,
            data: articleJson.array(),
            handle: () => seed.create(),
          }),
        ]
      : []),
    defineRoute({
      method: 'get',
      path: '/tag',
      group: 'Tags and categories',
      summary: 'List the tags',
      write: false,
      status: 200,
      data: termJson.array(),
      handle: () => terms.listTags(),
    }),
    defineRoute({
      method: 'get',
      path: '/category',
      group: 'Tags and categories',
      summary: 'List the categories',
      write: false,
      status: 200,
      data: termJson.array(),
      handle: () => terms.listCategories(),
    }),
  ];
}

/** Probes for orchestrators: never rate limited, never behind the token. */
export function probeRouteTable({ health }: HttpControllers): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      group: 'Operations',
      summary: 'The process is alive',
      write: false,
      status: 200,
      data: healthJson,
      handle: () => health.alive(),
    }),
    defineRoute({
      method: 'get',
      path: '/ready',
      group: 'Operations',
      summary: 'The storage answers; not shutting down',
      write: false,
      status: 200,
      data: healthJson,
      failures: [{ status: 503, when: 'the storage does not answer within 1 s, or the service is shutting down' }],
      handle: () => health.ready(),
    }),
  ];
}
