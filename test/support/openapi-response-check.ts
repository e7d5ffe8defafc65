import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

interface DocumentedResponse {
  headers?: Record<string, { required?: boolean; schema?: object }>;
  content?: Record<string, { schema?: object }>;
}
export interface DocumentedOperation {
  responses: Record<string, DocumentedResponse>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentedOperation>>;
}

/** What a test received: enough to compare it with the document. */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, when the answer is JSON. */
  body: unknown;
}

const DOCUMENT_ID = 'openapi.json';

/**
 * Compares answers with the OpenAPI document the service serves: the status must be one the
 * operation documents, each documented header must be present when required and match its
 * schema, and a JSON body must match the response's schema, `$ref`s resolved against the
 * document's components (ajv, JSON Schema 2020-12 as in OpenAPI 3.1). A path the document does
 * not have must be a wrapped 404. Swagger UI's assets under /docs/ are not in the document.
 */
export class OpenApiResponseCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ pattern: RegExp; path: string }>;

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
    }));
  }

  /** Every way the response departs from the document; empty when it conforms. */
  problemsOf(method: string, url: string, response: ReceivedResponse): string[] {
    const path = url.split('?')[0] ?? url;
    const template = this.templates.find((candidate) => candidate.pattern.test(path))?.path;
    const operation = template ? this.document.paths[template]?.[method.toLowerCase()] : undefined;
    const where = `${method.toUpperCase()} ${url} → ${response.status}`;
    if (!template || !operation) {
      if (path.startsWith('/docs/')) return [];
      // Not an operation: the app's answer is a wrapped 404 (or 401/429 from the guards in front).
      return [404, 401, 429, 413, 415].includes(response.status)
        ? this.bodyProblems(where, '#/components/schemas/Failure', response.body)
        : [`${where}: not a documented operation, yet not a 404`];
    }
    const pointer = `#/paths/${pointerSegment(template)}/${method.toLowerCase()}/responses/${response.status}`;
    const documented = operation.responses[String(response.status)];
    if (!documented) return [`${where}: status not documented for this operation`];
    return [
      ...this.headerProblems(where, documented, response.headers),
      ...this.contentProblems(where, pointer, documented, response),
    ];
  }

  private headerProblems(where: string, documented: DocumentedResponse, headers: ReceivedResponse['headers']) {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${where}: required header ${name} is missing`);
        continue;
      }
      if (header.schema && !this.ajv.validate(header.schema, value)) {
        problems.push(`${where}: header ${name} ${JSON.stringify(value)} ${describe(this.ajv.errors)}`);
      }
    }
    return problems;
  }

  private contentProblems(where: string, pointer: string, documented: DocumentedResponse, response: ReceivedResponse) {
    const contentType =
      String(response.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const types = Object.keys(documented.content ?? {});
    if (types.length === 0) return [];
    if (!types.includes(contentType))
      return [`${where}: Content-Type ${contentType} is not one of ${types.join(', ')}`];
    // JSON and JSON-based types (`application/feed+json`), which supertest parses too.
    const json = contentType === 'application/json' || contentType.endsWith('+json');
    if (!json || !documented.content?.[contentType]?.schema) return [];
    return this.bodyProblems(where, `${pointer}/content/${pointerSegment(contentType)}/schema`, response.body);
  }

  private bodyProblems(where: string, pointer: string, body: unknown): string[] {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate(body) ? [] : [`${where}: body ${describe(validate.errors)}`];
  }
}

/** A JSON pointer segment inside a URI fragment. */
function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`).join('; ');
}
