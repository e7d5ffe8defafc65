import addFormats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import type { GeneratedRequest, OpenApiDocument } from './generated-requests';

/** A standard validator's word on a request: whether the document accepts it, and if not, why. */
export type StandardVerdict = { accepted: true } | { accepted: false; why: string };

/**
 * The document's verdict on a request, from a validator that is not ours: openapi-backend
 * (routing by the document's paths, then ajv on parameters and body). It knows only the document.
 */
export class StandardRequestValidator {
  private constructor(private readonly backend: OpenAPIBackend) {}

  static async of(document: OpenApiDocument): Promise<StandardRequestValidator> {
    // Its own copy: the validator dereferences the document it is given in place. `quick` skips
    // its check of the document itself, which knows only OpenAPI 3.0 (it refuses 3.1's `const`);
    // the document is checked as 3.1 elsewhere (openapi.http.test.ts, Spectral). Its ajv knows
    // only OpenAPI's numeric formats; ajv-formats adds JSON Schema's (`date-time`), as the
    // response check has them, so that a format is checked, not ignored with a warning.
    const backend = new OpenAPIBackend({
      definition: structuredClone(document) as never,
      quick: true,
      customizeAjv: (ajv) => addFormats(ajv),
    });
    await backend.init();
    return new StandardRequestValidator(backend);
  }

  verdict(request: GeneratedRequest): StandardVerdict {
    const lowerCaseHeaders = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const asked = { method: request.method, path: request.path, headers: lowerCaseHeaders, body: request.body };
    // openapi-backend forgives a trailing slash; OpenAPI does not (a path matches its template exactly).
    const pathname = request.path.split('?')[0] ?? '';
    if (pathname.length > 1 && pathname.endsWith('/')) return { accepted: false, why: 'a trailing slash' };
    const operation = this.backend.router.matchOperation(asked);
    if (!operation) return { accepted: false, why: 'no operation of the document matches' };
    const result = this.backend.validateRequest(asked, operation);
    if (result.valid) return { accepted: true };
    const why = (result.errors ?? []).map((error) => `${error.instancePath} ${error.message}`).join('; ');
    return { accepted: false, why };
  }
}
