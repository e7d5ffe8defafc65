import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { SLUG_PATTERN } from '../../src/domain';
import { createArticleBody, updateArticleBody } from '../../src/interfaces/http/validation/article-schemas';
import {
  decimalIntegerPattern,
  STORABLE_TEXT,
  trimmedTextPattern,
  YEAR_ZERO_BEFORE_ITS_LAST_DAY,
} from '../../src/interfaces/http/validation/documented-patterns';
import { readRoutes } from '../../src/interfaces/user-demo/route-decorators';
import { UserController } from '../../src/interfaces/user-demo/user-controller';
import { type HttpHarness, openHttpHarness } from '../support/http-harness';
import { OpenApiResponseCheck } from '../support/openapi-response-check';
import { ARTICLE_KEYS } from './suites/harness-per-suite';

type Parameter = {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema: Record<string, unknown>;
};
type Operation = {
  security?: unknown;
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: Parameter[];
  responses: Record<
    string,
    { description?: string; headers?: Record<string, { required?: boolean; schema: { pattern?: string } }> }
  >;
};
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties: Record<string, unknown>; required?: string[]; example?: unknown }>;
  };
};

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: ExpressLayer[]; routes?: readonly { method: string; path: string }[] };
}

/**
 * Every `METHOD /path` the app routes: Express route layers, in sub-routers too, the route
 * tables' handlers (route-router.ts), and the decorated demo routes.
 */
function servedRoutes(app: Express): Set<string> {
  const served = new Set<string>();
  const walk = (stack: ExpressLayer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          // router.all(path) answers the 404 for a known path asked with another method.
          if (on && method !== '_all') served.add(`${method.toUpperCase()} ${layer.route.path}`);
        }
      } else if (layer.handle?.routes) {
        for (const route of layer.handle.routes) served.add(`${route.method.toUpperCase()} ${route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: ExpressLayer[] } }).router.stack);
  for (const route of readRoutes(new UserController())) served.add(`${route.method} ${route.url}`);
  return served;
}

function documentedRoutes(document: OpenApiDocument): Set<string> {
  const documented = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
  }
  return documented;
}

/** The statuses documented for a create, keys or not: their 401, 403 and 429 are always there. */
const CREATE_STATUSES = ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503'];

describe('GET /openapi.json', () => {
  let harness: HttpHarness;
  let document: OpenApiDocument;
  beforeAll(async () => {
    harness = await openHttpHarness('memory', { apiToken: 'token', rateLimitPerMinute: 1000 });
    document = (await request(harness.app).get('/openapi.json').expect(200)).body;
  });
  afterAll(() => harness.close());

  it('is a valid OpenAPI 3.1 document', () => {
    const output = execFileSync(process.execPath, [path.join(__dirname, '../support/validate-openapi.mjs')], {
      input: JSON.stringify(document),
    });
    expect(JSON.parse(output.toString())).toEqual({ version: '3.1', valid: true, errors: [] });
  });

  it('documents every route the app serves, and serves every route it documents', () => {
    const served = servedRoutes(harness.app);
    const documented = documentedRoutes(document);
    expect([...documented].sort()).toEqual([...served].sort());
    expect(served).toContain('GET /article/:id');
    expect(served).toContain('GET /user/list');
  });

  it('answers every documented operation with something other than "No route"', async () => {
    for (const route of documentedRoutes(document)) {
      const [method, path] = route.split(' ') as [string, string];
      const sent = path.replace(':id', '1').replace(':slug', 'no-such-slug');
      const response = await request(harness.app)[method.toLowerCase() as 'get'](sent);
      // A 404 about the data (no article 1, no such slug) is an answer; an unknown route's names the request.
      const message = String(response.body?.message ?? '');
      expect({ route, message }).not.toEqual({ route, message: `No route for ${method} ${sent}` });
      expect({ route, message: message.startsWith('No route for ') }).toEqual({ route, message: false });
    }
  });

  it('describes the request bodies with the fields the validation accepts', () => {
    const { schemas } = document.components;
    expect(Object.keys(schemas.CreateArticleBody?.properties ?? {}).sort()).toEqual(
      Object.keys(createArticleBody.shape).sort(),
    );
    expect(Object.keys(schemas.UpdateArticleBody?.properties ?? {}).sort()).toEqual(
      Object.keys(updateArticleBody.shape).sort(),
    );
    expect(schemas.CreateArticleBody?.required).toEqual(['content']);
    expect(schemas.UpdateArticleBody?.required).toEqual(['id']);
    expect(Object.keys(schemas.Article?.properties ?? {})).toEqual(ARTICLE_KEYS);
  });

  it("states the domain's text rules and the term reference's one-of", () => {
    const create = document.components.schemas.CreateArticleBody?.properties as Record<string, object>;
    const storable = { type: 'string', pattern: STORABLE_TEXT };
    expect(create.title).toEqual(
      expect.objectContaining({ anyOf: [expect.objectContaining({ ...storable, maxLength: 200 }), { type: 'null' }] }),
    );
    expect(create.description).toEqual(expect.objectContaining({ ...storable, maxLength: 1000 }));
    expect(create.content).toEqual(expect.objectContaining({ ...storable, minLength: 1 }));
    const reference = document.components.schemas.TermReference as unknown as { oneOf: object[] };
    expect(reference.oneOf).toEqual([
      expect.objectContaining({
        required: ['id'],
        properties: { id: expect.objectContaining({ ...storable, minLength: 1, maxLength: 64 }) },
        additionalProperties: false,
      }),
      expect.objectContaining({
        required: ['name'],
        properties: {
          name: expect.objectContaining({ type: 'string', pattern: trimmedTextPattern(64) }),
          description: expect.objectContaining({
            anyOf: [expect.objectContaining({ maxLength: 1000 }), { type: 'null' }],
          }),
        },
        additionalProperties: false,
      }),
    ]);
  });

  it("states publishing's rules: visible or publishedAt, an instant, a slug, and the slug route's answers", () => {
    const { schemas } = document.components;
    for (const body of ['CreateArticleBody', 'UpdateArticleBody']) {
      expect(schemas[body]).toEqual(expect.objectContaining({ not: { required: ['visible', 'publishedAt'] } }));
    }
    const create = schemas.CreateArticleBody?.properties as Record<string, { anyOf?: Array<{ pattern?: string }> }>;
    expect(create.publishedAt?.anyOf).toEqual([
      expect.objectContaining({
        type: 'string',
        format: 'date-time',
        pattern: expect.any(String),
        not: { pattern: YEAR_ZERO_BEFORE_ITS_LAST_DAY },
      }),
      { type: 'null' },
    ]);
    // The service's instants: `T` and `Z` in capitals, seconds, an offset with its minutes.
    const instant = new RegExp(create.publishedAt?.anyOf?.[0]?.pattern ?? '^$', 'u');
    const taken = ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00.123456+05:30', '2028-02-29T00:00:00-00:00'];
    const refused = ['2026-12-01t09:00:00z', '2026-12-01 09:00:00Z', '2026-12-01T09:00Z', '2026-12-01T09:00:00+0530'];
    expect([...taken, ...refused].filter((text) => !instant.test(text))).toEqual(refused);
    const slug = { type: 'string', minLength: 1, maxLength: 185, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' };
    expect(create.slug).toEqual(expect.objectContaining(slug));
    expect(create.featured).toEqual(expect.objectContaining({ type: 'boolean' }));

    const bySlug = document.paths['/article/slug/{slug}']?.get;
    expect(bySlug?.parameters?.[0]).toEqual(
      expect.objectContaining({ in: 'path', name: 'slug', required: true, schema: expect.objectContaining(slug) }),
    );
    expect(Object.keys(bySlug?.responses ?? {})).toEqual([
      '200',
      '301',
      '304',
      '400',
      '401',
      '404',
      '429',
      '500',
      '503',
    ]);
    expect(bySlug?.responses['301']?.headers?.Location?.required).toBe(true);
    const etag = new RegExp(bySlug?.responses['200']?.headers?.ETag?.schema.pattern ?? '^$');
    expect(['"12-3"', '"12-3s"', 'W/"12-3"', '"12-3x"'].filter((tag) => etag.test(tag))).toEqual(['"12-3"', '"12-3s"']);
  });

  it('documents the wrapper, each error status and the bearer token of the writes', () => {
    const create = document.paths['/article/create']?.post;
    // A key or the API token; none while neither exists (the open rules).
    expect(create?.security).toEqual([{ bearerToken: [] }, {}]);
    expect(Object.keys(create?.responses ?? {})).toEqual(CREATE_STATUSES);
    expect(Object.keys(document.paths['/article/update']?.post?.responses ?? {})).toContain('404');
    // Reads take a key too (a draft is answered to who may edit it), and need none.
    expect(document.paths['/article']?.get?.security).toEqual([{}, { bearerToken: [] }]);
    expect(document.paths['/health']?.get?.security).toBeUndefined();
    expect(Object.keys(document.paths['/ready']?.get?.responses ?? {})).toEqual(['200', '500', '503']);
    expect(Object.keys(document.paths['/ready/write']?.get?.responses ?? {})).toEqual(['200', '500', '503']);
    expect(JSON.stringify(create?.responses['400'])).toContain('#/components/schemas/Failure');
  });
  it('documents delete, the list parameters, and the conditional-write headers', () => {
    const remove = document.paths['/article/delete']?.post;
    expect(remove?.security).toEqual([{ bearerToken: [] }, {}]);
    expect(Object.keys(remove?.responses ?? {})).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '412',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(document.paths['/article/update']?.post?.responses ?? {})).toContain('412');
    for (const path of ['/article/update', '/article/delete']) {
      expect(document.paths[path]?.post?.parameters).toEqual([
        expect.objectContaining({ in: 'header', name: 'X-Request-Id' }),
        expect.objectContaining({
          in: 'header',
          name: 'If-Match',
          schema: expect.objectContaining({ type: 'string' }),
        }),
      ]);
    }

    const list = document.paths['/article']?.get;
    const parameters = Object.fromEntries((list?.parameters ?? []).map((p) => [`${p.in} ${p.name}`, p.schema]));
    // Exactly the text the parsers accept, as patterns: a validator given `integer` would coerce `01`, `1e2`, `+5`.
    const name = trimmedTextPattern(64);
    expect(parameters).toEqual({
      'header X-Request-Id': expect.objectContaining({ type: 'string' }),
      'header If-None-Match': expect.objectContaining({ type: 'string' }),
      'query order': expect.objectContaining({ type: 'string', enum: ['id', 'newest'] }),
      'query cursor': expect.objectContaining({ type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }),
      'query limit': expect.objectContaining({ type: 'string', pattern: decimalIntegerPattern(100) }),
      'query after': expect.objectContaining({ type: 'string', pattern: decimalIntegerPattern(2147483647) }),
      'query tag': expect.objectContaining({ type: 'string', pattern: name }),
      'query category': expect.objectContaining({ type: 'string', pattern: name }),
      'query featured': expect.objectContaining({ type: 'string', enum: ['true', 'false'] }),
      'query author': expect.objectContaining({
        type: 'string',
        pattern: SLUG_PATTERN.source,
        example: 'ada-lovelace',
      }),
      'query q': expect.objectContaining({ type: 'string', pattern: trimmedTextPattern(100), example: 'typescript' }),
    });
    // What OpenAPI cannot say between two parameters, or of an opaque cursor, the descriptions say.
    const described = Object.fromEntries((list?.parameters ?? []).map((p) => [p.name, p.description ?? '']));
    expect(described.after).toContain('Not with `order=newest`');
    expect(described.cursor).toMatch(/^Only with `order=newest`: .*one this service did not give is refused$/);
    expect(parameters['header X-Request-Id']).not.toHaveProperty('pattern');
    expect(Object.keys(list?.responses ?? {})).toContain('400');
    expect(Object.keys(list?.responses ?? {})).toContain('304');
    const etag = list?.responses['200']?.headers?.ETag;
    expect(etag?.required).toBe(true);
    expect(new RegExp(etag?.schema.pattern ?? '^$').test('W/"3q2-7wEb0ZqSv1aKXz8pLw"')).toBe(true);
    const link = list?.responses['200']?.headers?.Link;
    expect(link?.required).toBe(false);
    for (const example of [
      '</article?limit=2&after=7&tag=C%2B%2B>; rel="next"',
      '</article?limit=2&after=7&q=a%20b>; rel="next"',
      '</article?limit=2&order=newest&cursor=MTc2NzIyNTYwMDEyMy4z&featured=true>; rel="next"',
    ]) {
      expect(new RegExp(link?.schema.pattern ?? '^$').test(example)).toBe(true);
    }

    const one = document.paths['/article/{id}']?.get;
    expect(one?.parameters).toEqual([
      expect.objectContaining({
        in: 'path',
        name: 'id',
        required: true,
        schema: expect.objectContaining({ type: 'string', pattern: decimalIntegerPattern(2147483647) }),
      }),
      expect.objectContaining({ in: 'header', name: 'X-Request-Id' }),
      expect.objectContaining({
        in: 'header',
        name: 'If-None-Match',
        schema: expect.objectContaining({ type: 'string' }),
      }),
    ]);
    expect(one?.responses['200']?.headers?.ETag?.required).toBe(false);
    // GET /article/create is an unknown route, not an article id: a generated client is told of the 404.
    expect(one?.responses['404']?.description).toMatch('/article/create');
    expect(document.paths['/article/create']?.post?.responses['201']?.headers?.ETag?.required).toBe(true);
    expect(document.paths['/article/update']?.post?.responses['200']?.headers?.ETag?.required).toBe(true);

    // The headers the middleware adds: on every answer, and on the failures that carry their own.
    for (const status of ['200', '400', '401', '429', '500', '503']) {
      expect(remove?.responses[status]?.headers?.['X-Request-Id']?.required).toBe(true);
      expect(remove?.responses[status]?.headers?.RateLimit?.required).toBe(false);
    }
    expect(remove?.responses['401']?.headers?.['WWW-Authenticate']?.required).toBe(true);
    expect(remove?.responses['429']?.headers?.['Retry-After']?.required).toBe(true);
    expect(remove?.responses['503']?.headers?.['Retry-After']).toBeDefined();
  });

  it('gives every operation a summary, a description and a unique operationId, and every schema an example', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    for (const operation of operations) {
      expect(operation).toEqual(
        expect.objectContaining({
          summary: expect.any(String),
          description: expect.any(String),
          operationId: expect.any(String),
        }),
      );
    }
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // Verb and noun: the method names of a generated client.
    expect(ids.sort()).toEqual([
      'addUser',
      'checkLiveness',
      'checkReadiness',
      'checkWriteReadiness',
      'createArticle',
      'createKey',
      'createWebhook',
      'deleteArticle',
      'deleteWebhook',
      'getArticle',
      'getArticleBySlug',
      'getDocumentationPage',
      'getMetrics',
      'getOpenApiDocument',
      'listArticleRevisions',
      'listArticles',
      'listCategories',
      'listKeys',
      'listTags',
      'listUsers',
      'listWebhookDeliveries',
      'listWebhooks',
      'readAtomFeed',
      'readJsonFeed',
      'readRssFeed',
      'restoreArticle',
      'revokeKey',
      'seedArticles',
      'updateArticle',
    ]);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect({ name, example: schema.example }).toEqual({ name, example: expect.anything() });
    }
    const article = document.components.schemas.Article?.properties as Record<string, { example?: unknown }>;
    expect(article.createdAt?.example).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
    expect(article.id?.example).toBe(1);
  });

  describe('the response check the HTTP suites run', () => {
    const check = () => new OpenApiResponseCheck(document);
    const json = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' };
    const article = {
      id: 1,
      title: null,
      description: 'd',
      content: 'c',
      visible: true,
      tag: [],
      category: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      slug: 'hello',
      publishedAt: '2026-01-01T00:00:00.000Z',
      status: 'published',
      featured: false,
      readingTime: 1,
      author: null,
    };
    const wrapped = (data: unknown) => ({ statusCode: 10000, data, message: 'Success' });

    it('accepts an answer as documented', () => {
      expect(
        check().problemsOf('get', '/article/1', {
          status: 200,
          headers: { ...json, etag: '"1-1"' },
          body: wrapped(article),
        }),
      ).toEqual([]);
      expect(
        check().problemsOf('get', '/article?limit=1', {
          status: 200,
          headers: { ...json, etag: 'W/"3q2-7wEb0ZqSv1aKXz8pLw"', link: '</article?limit=1&after=1>; rel="next"' },
          body: wrapped([article]),
        }),
      ).toEqual([]);
      expect(
        check().problemsOf('get', '/article/slug/earlier', {
          status: 301,
          headers: { ...json, location: '/article/slug/hello' },
          body: wrapped({ id: 1, slug: 'hello' }),
        }),
      ).toEqual([]);
      expect(
        check().problemsOf('get', '/article/slug/hello', {
          status: 200,
          headers: { ...json, etag: '"1-2s"' },
          body: wrapped({ ...article, visible: false, status: 'scheduled', publishedAt: '2099-01-01T00:00:00.000Z' }),
        }),
      ).toEqual([]);
    });

    it.each([
      ['a status the operation does not document', 'get', '/article/1', 404, {}, wrapped(null)],
      ['a required ETag missing', 'post', '/article/update', 200, {}, wrapped(article)],
      ['a malformed ETag', 'get', '/article/1', 200, { etag: 'W/"1-1"' }, wrapped(article)],
      ['a malformed Link', 'get', '/article', 200, { link: '</article?after=1>; rel="next"' }, wrapped([])],
      ['an article without a field', 'get', '/article/1', 200, {}, wrapped({ ...article, content: undefined })],
      ['an article with a field too many', 'get', '/article', 200, {}, wrapped([{ ...article, version: 1 }])],
      ['a timestamp that is not one', 'get', '/article/1', 200, {}, wrapped({ ...article, createdAt: 'yesterday' })],
      ['a status that is not one', 'get', '/article/1', 200, {}, wrapped({ ...article, status: 'hidden' })],
      ['a slug that is not one', 'get', '/article/1', 200, {}, wrapped({ ...article, slug: 'Hello World' })],
      ['a moved article without its Location', 'get', '/article/slug/a', 301, {}, wrapped({ id: 1, slug: 'b' })],
      ['a failure body that is not the wrapper', 'post', '/article/delete', 404, {}, { error: 'not found' }],
      ['an unknown route answered with a 200', 'get', '/nowhere', 200, {}, wrapped(null)],
      ['a request id that is not one', 'get', '/article/1', 200, { 'x-request-id': 'a b' }, wrapped(article)],
    ])('finds %s', (_case, method, url, status, headers, body) => {
      expect(check().problemsOf(method, url, { status, headers: { ...json, ...headers }, body })).not.toEqual([]);
    });

    it('finds an answer without its X-Request-Id', () => {
      const { 'x-request-id': _dropped, ...withoutId } = json;
      expect(
        check().problemsOf('get', '/article/1', {
          status: 200,
          headers: { ...withoutId, etag: '"1-1"' },
          body: wrapped(article),
        }),
      ).not.toEqual([]);
    });
  });
});

describe('the OpenAPI document follows the configuration', () => {
  it('has no /seed/create when SEED_ENABLED is false, and no rate-limit headers when it is off', async () => {
    const harness = await openHttpHarness('memory', { seedEnabled: false });
    try {
      const document: OpenApiDocument = (await request(harness.app).get('/openapi.json')).body;
      expect(document.paths['/seed/create']).toBeUndefined();
      expect(documentedRoutes(document)).toEqual(servedRoutes(harness.app));
      const create = document.paths['/article/create']?.post;
      expect(Object.keys(create?.responses['201']?.headers ?? {})).not.toContain('RateLimit');
      // Keys can be made at any time: their 401, 403 and 429 (failed authentications) are always there.
      expect(Object.keys(create?.responses ?? {})).toEqual(CREATE_STATUSES);
    } finally {
      await harness.close();
    }
  });
});
