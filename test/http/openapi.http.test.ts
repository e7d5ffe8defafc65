import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createArticleBody, updateArticleBody } from '../../src/interfaces/http/validation/article-schemas';
import { readRoutes } from '../../src/interfaces/user-demo/route-decorators';
import { UserController } from '../../src/interfaces/user-demo/user-controller';
import { type HttpHarness, openHttpHarness } from '../support/http-harness';
import { ARTICLE_KEYS } from './suites/harness-per-suite';

type Operation = { security?: unknown; responses: Record<string, unknown> };
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
};

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: ExpressLayer[] };
}

/** Every `METHOD /path` the app routes: Express route layers, in sub-routers too, and the decorated demo routes. */
function servedRoutes(app: Express): Set<string> {
  const served = new Set<string>();
  const walk = (stack: ExpressLayer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          // router.all(path) answers the 404 for a known path asked with another method.
          if (on && method !== '_all') served.add(`${method.toUpperCase()} ${layer.route.path}`);
        }
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
      const response = await request(harness.app)[method.toLowerCase() as 'get'](path.replace(':id', '1'));
      expect({ route, message: response.body?.message }).not.toEqual({ route, message: `No route for ${route}` });
      expect(response.status).not.toBe(404);
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

  it('documents the wrapper, each error status and the bearer token of the writes', () => {
    const create = document.paths['/article/create']?.post;
    expect(create?.security).toEqual([{ bearerToken: [] }]);
    expect(Object.keys(create?.responses ?? {})).toEqual(['201', '400', '401', '413', '415', '429', '500', '503']);
    expect(Object.keys(document.paths['/article/update']?.post?.responses ?? {})).toContain('404');
    expect(document.paths['/article']?.get?.security).toBeUndefined();
    expect(Object.keys(document.paths['/ready']?.get?.responses ?? {})).toEqual(['200', '500', '503']);
    expect(JSON.stringify(create?.responses['400'])).toContain('#/components/schemas/Failure');
  });
});

describe('the OpenAPI document follows the configuration', () => {
  it('has no /seed/create when SEED_ENABLED is false, and no token or 429 when they are off', async () => {
    const harness = await openHttpHarness('memory', { seedEnabled: false });
    try {
      const document: OpenApiDocument = (await request(harness.app).get('/openapi.json')).body;
      expect(document.paths['/seed/create']).toBeUndefined();
      expect(documentedRoutes(document)).toEqual(servedRoutes(harness.app));
      const create = document.paths['/article/create']?.post;
      expect(create?.security).toBeUndefined();
      expect(Object.keys(create?.responses ?? {})).toEqual(['201', '400', '413', '415', '500', '503']);
    } finally {
      await harness.close();
    }
  });
});
