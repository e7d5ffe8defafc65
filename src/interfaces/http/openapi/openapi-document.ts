import { z } from 'zod';
import { createDocument, type oas31 } from 'zod-openapi';
import { RETRY_AFTER_SECONDS } from '../error-mapping';
import type { ResponseHeader, RouteDefinition } from '../route-definition';
import { extraOperations } from './extra-operations';
import { failureJson } from './failure-json';

export interface OpenApiOptions {
  rateLimited: boolean;
}

export interface DocumentedRoutes {
  /** The article, seed, tag and category routes: behind the rate limit, touching storage. */
  api: readonly RouteDefinition[];
  /** /health and /ready. */
  probes: readonly RouteDefinition[];
}

const successOf = (data: z.ZodType) =>
  z.object({ statusCode: z.literal(10000).meta({ example: 10000 }), data, message: z.literal('Success') });

/** The OpenAPI 3.1 document of the app as configured: built from the very schemas that check requests. */
export function buildOpenApiDocument(routes: DocumentedRoutes, options: OpenApiOptions): oas31.OpenAPIObject {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (method: string, expressPath: string, operation: unknown) => {
    const path = expressPath.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [method]: operation };
  };
  for (const route of routes.api) add(route.method, route.path, operation(route, { ...options, touchesStorage: true }));
  for (const route of routes.probes) {
    add(route.method, route.path, operation(route, { rateLimited: false, touchesStorage: false }));
  }
  for (const extra of extraOperations(options)) add(extra.method, extra.path, extra.operation);

  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Blog article API',
      version: '1.0.0',
      contact: { name: 'Blog article API maintainers' },
      description:
        'Articles with tags and categories. Every article, seed, tag, category and probe answer is wrapped: ' +
        '`{statusCode: 10000 | 10001, data, message}`; the HTTP status tells the outcome too.',
    },
    // Relative: the service that serves this document, wherever it is reached (Try it out calls it).
    servers: [{ url: '/', description: 'This service' }],
    tags: [
      { name: 'Articles', description: 'Articles with their tags and categories' },
      { name: 'Tags and categories', description: 'Every tag and category, linked or not' },
      { name: 'Feeds', description: 'RSS 2.0, Atom and JSON Feed of the latest published articles; not wrapped' },
      { name: 'Keys', description: "Writers' keys and their roles, for admins" },
      { name: 'Webhooks', description: 'Subscriptions to article events and their deliveries, for admins' },
      { name: 'Operations', description: 'Probes, metrics and this documentation' },
      { name: 'Demonstration', description: 'Fixed answers from the decorator-driven demo router' },
    ],
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A key from `npm run keys` or `POST /key/create` (`blog_…`), or the API_TOKEN',
        },
      },
    },
    paths,
  } as Parameters<typeof createDocument>[0]);
}

function operation(route: RouteDefinition, context: { rateLimited: boolean; touchesStorage: boolean }): object {
  // Every API route reads a key when one is sent; a write needs one once keys or API_TOKEN exist.
  const authenticates = context.touchesStorage;
  const requestHeaders = z.object({
    'X-Request-Id': REQUEST_ID_PARAM,
    ...route.headers?.shape,
  });
  // zod-openapi wants only the locations that have a schema.
  const requestParams = Object.fromEntries(
    Object.entries({ path: route.params, query: route.query, header: requestHeaders }).filter(([, schema]) => schema),
  );
  return {
    summary: route.summary,
    description: route.description,
    tags: [route.group],
    operationId: route.operationId,
    ...(authenticates ? { security: route.write ? [{ bearerToken: [] }, {}] : [{}, { bearerToken: [] }] } : {}),
    ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      [route.status]: {
        description: route.status === 201 ? 'Created' : 'Success',
        headers: { ...everyAnswerHeaders(context.rateLimited), ...route.responseHeaders },
        content: route.unwrapped
          ? { [route.unwrapped.mediaType]: { schema: route.data } }
          : { 'application/json': { schema: successOf(route.data) } },
      },
      ...(route.movedPermanently
        ? {
            301: {
              description: route.movedPermanently.when,
              headers: {
                ...everyAnswerHeaders(context.rateLimited),
                Location: header('Where the article is now', { example: '/article/slug/hello-world' }, true),
              },
              content: { 'application/json': { schema: successOf(route.movedPermanently.data) } },
            },
          }
        : {}),
      ...(route.notModified
        ? {
            304: {
              description: route.responseHeaders?.['Last-Modified']
                ? 'Not modified: If-None-Match names the current ETag, or, without If-None-Match, nothing changed since If-Modified-Since; no body'
                : 'Not modified: If-None-Match names the current ETag; no body',
            },
          }
        : {}),
      ...failures(route, { ...context, authenticates }),
    },
  };
}

/** A response header of the document, of the routes' own ResponseHeader shape (a string value). */
const header = (description: string, schema: Record<string, unknown>, required: boolean): ResponseHeader => ({
  description,
  required,
  schema: { type: 'string', ...schema },
});

/* Headers the middleware reads or sends for every route (request-id.ts, security.ts, the bearer token check). */
// Any value is accepted (one that is not an id is replaced), so the document asks for none in particular.
const REQUEST_ID_PARAM = z.string().optional().meta({
  description:
    'Your id for this request (1 to 128 of `A-Z a-z 0-9 _ . : -`): echoed in the answer and carried by the log line; any other value is replaced by a new UUID',
  example: 'checkout-42',
});

const everyAnswerHeaders = (rateLimited: boolean) => ({
  'X-Request-Id': header(
    "The request's id: yours from X-Request-Id, or a new UUID",
    { pattern: '^[\\w.:-]{1,128}$', example: '0cd1ff79-4e7c-452b-af73-563bd584998e' },
    true,
  ),
  ...(rateLimited
    ? {
        RateLimit: header(
          'When RATE_LIMIT_PER_MINUTE is set: the requests left in the current minute (IETF RateLimit header)',
          { example: '"60-in-1min"; r=59; t=60' },
          false,
        ),
        'RateLimit-Policy': header(
          'When RATE_LIMIT_PER_MINUTE is set: the limit and its window (IETF RateLimit-Policy header)',
          { example: '"60-in-1min"; q=60; w=60' },
          false,
        ),
      }
    : {}),
});

/** The headers of a failure of this status, beside those of every answer. */
function failureHeaders(status: number): Record<string, object> {
  const seconds = (example: string) => ({ pattern: '^[0-9]+$', example });
  switch (status) {
    case 401:
      return { 'WWW-Authenticate': header('The scheme the write needs', { const: 'Bearer', example: 'Bearer' }, true) };
    case 429:
      return { 'Retry-After': header('Seconds until the current minute of the rate limit ends', seconds('60'), true) };
    case 503:
      // Sent with every 503 (error-mapping.ts).
      return {
        'Retry-After': header(
          'Seconds to wait before retrying (storage unavailable, a failover under way, shutting down)',
          seconds(String(RETRY_AFTER_SECONDS)),
          true,
        ),
      };
    default:
      return {};
  }
}

function failures(
  route: RouteDefinition,
  context: { authenticates: boolean; rateLimited: boolean; touchesStorage: boolean },
): Record<string, object> {
  const rows: Array<[number, string]> = [];
  if (route.body || route.params || route.query) rows.push([400, 'Invalid input; the message names the field']);
  if (context.authenticates) {
    rows.push([401, 'A bearer token that is no valid key (unknown, expired or revoked)']);
    if (route.write) rows.push([401, 'No key or API token while keys or API_TOKEN exist']);
    if (route.write) rows.push([403, "The key's role does not allow this write; the message says what"]);
    rows.push([429, 'Over 20 failed authentications a minute from this address']);
  }
  if (route.body) rows.push([413, 'Body over BODY_LIMIT'], [415, 'Body is not application/json']);
  if (context.rateLimited) rows.push([429, 'Over RATE_LIMIT_PER_MINUTE for this client']);
  for (const failure of route.failures ?? []) rows.push([failure.status, failure.when]);
  if (context.touchesStorage) rows.push([503, 'Storage unavailable; retry later']);
  rows.push([500, 'Unexpected error ("Internal error")']);
  const responses: Record<string, object> = {};
  for (const [status, description] of rows.sort(([a], [b]) => a - b)) {
    const previous = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: previous ? `${previous.description}; ${description}` : description,
      headers: { ...everyAnswerHeaders(context.rateLimited), ...failureHeaders(status) },
      content: { 'application/json': { schema: failureJson } },
    };
  }
  return responses;
}
