import { z } from 'zod';
import { failureJson } from './failure-json';

/** The endpoints outside the wrapped route tables: the document itself, its page, metrics, the demo routes. */
export function extraOperations(options: { rateLimited: boolean }) {
  const demoAnswer = z.object({ success: z.literal(true), code: z.literal(10000) });
  const limited = options.rateLimited ? { 429: { description: 'Over RATE_LIMIT_PER_MINUTE' } } : {};
  const otherUrl = {
    404: {
      description: 'Any other URL (a query string included) or method: an unknown route, wrapped',
      content: { 'application/json': { schema: failureJson } },
    },
  };
  return [
    {
      method: 'get',
      path: '/openapi.json',
      operation: {
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of the service as configured, built from its route table.',
        operationId: 'getOpenApiDocument',
        tags: ['Operations'],
        responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': {} } } },
      },
    },
    {
      method: 'get',
      path: '/docs',
      operation: {
        summary: 'Interactive documentation of this document (Swagger UI)',
        description:
          'Swagger UI over /openapi.json, served from the swagger-ui-dist package (no CDN), at `/docs/`: ' +
          'its assets are relative to that path, so `/docs` redirects there.',
        operationId: 'getDocumentationPage',
        tags: ['Operations'],
        responses: {
          301: {
            description: 'To the page at /docs/, an HTML page',
            headers: {
              Location: { description: 'The page', required: true, schema: { type: 'string', const: '/docs/' } },
            },
          },
        },
      },
    },
    {
      method: 'get',
      path: '/metrics',
      operation: {
        summary: 'Prometheus metrics: requests by route and status, durations, process',
        description: 'Prometheus text format; unauthenticated and never rate limited.',
        operationId: 'getMetrics',
        tags: ['Operations'],
        responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': {} } } },
      },
    },
    {
      method: 'get',
      path: '/user/list',
      operation: {
        summary: 'Demonstration: two fixed users (exact URL, no query string)',
        description: 'Served by the decorator-driven demo router; the answer is not wrapped.',
        operationId: 'listUsers',
        tags: ['Demonstration'],
        responses: {
          200: {
            description: 'Not wrapped',
            content: {
              'application/json': {
                schema: demoAnswer.extend({ data: z.array(z.object({ name: z.string(), age: z.number() })) }),
              },
            },
          },
          ...otherUrl,
          ...limited,
        },
      },
    },
    {
      method: 'post',
      path: '/user/add',
      operation: {
        summary: 'Demonstration: a fixed answer; nothing is stored',
        description: 'Served by the decorator-driven demo router; the answer is not wrapped.',
        operationId: 'addUser',
        tags: ['Demonstration'],
        responses: {
          200: { description: 'Not wrapped', content: { 'application/json': { schema: demoAnswer } } },
          ...otherUrl,
          ...limited,
        },
      },
    },
  ];
}
