import type { Middleware } from 'openapi-fetch';
import { z } from 'zod';

/** An operation as `METHOD /path/{template}`, the way a document and openapi-fetch's schemaPath name it. */
export type OperationName = string;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const documentPaths = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });

/** Every operation an OpenAPI document lists (a path item's other keys, such as `parameters`, are not). */
export function documentedOperations(document: unknown): OperationName[] {
  const { paths } = documentPaths.parse(document);
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => HTTP_METHODS.has(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/**
 * Records which operations an openapi-fetch client called, by the path template it was called
 * with (its schemaPath), so that a test can show it called every operation of a document.
 */
export class CalledOperations {
  private readonly called = new Set<OperationName>();

  readonly middleware: Middleware = {
    onRequest: ({ request, schemaPath }) => {
      this.called.add(`${request.method} ${schemaPath}`);
    },
  };

  list(): OperationName[] {
    return [...this.called].sort();
  }
}
