import type { Request } from 'express';
import type { ArticleController } from './controllers/article-controller';
import type { SeedController } from './controllers/seed-controller';
import type { TermController } from './controllers/term-controller';
import type { HttpSuccess } from './response';

export interface HttpControllers {
  articles: ArticleController;
  seed: SeedController;
  terms: TermController;
}

export interface RouteDefinition {
  method: 'get' | 'post';
  path: string;
  /** Writes need the API token when one is configured. */
  write: boolean;
  /** Reads a JSON body. */
  body: boolean;
  handle: (request: Request) => Promise<HttpSuccess>;
}

/** Every wrapped route of the service. Literal paths come before `/article/:id`. */
export function routeTable({ articles, seed, terms }: HttpControllers): RouteDefinition[] {
  return [
    { method: 'post', path: '/article/create', write: true, body: true, handle: articles.create },
    { method: 'post', path: '/article/update', write: true, body: true, handle: articles.update },
    { method: 'get', path: '/article', write: false, body: false, handle: articles.listVisible },
    { method: 'get', path: '/article/:id', write: false, body: false, handle: articles.getOne },
    { method: 'get', path: '/seed/create', write: true, body: false, handle: seed.create },
    { method: 'get', path: '/tag', write: false, body: false, handle: terms.listTags },
    { method: 'get', path: '/category', write: false, body: false, handle: terms.listCategories },
  ];
}
