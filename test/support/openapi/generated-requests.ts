import fc from 'fast-check';
import type { DocumentedOperation } from '../openapi-response-check';
import { HEADER_CHARACTER, type JsonSchema, schemaArbitrary } from './schema-arbitrary';
import { queryKeepingWordRules, wordRulesOf } from './word-rules';

/** One request, as sent: the method, the path with its query string, headers, and a JSON body. */
export interface GeneratedRequest {
  /** Lower case, as the document spells it: 'get', 'post'. */
  method: string;
  /** Percent-encoded path and query string: '/article?limit=20&q=ts'. */
  path: string;
  headers: Record<string, string>;
  /** JSON text; Content-Type application/json is among the headers then. */
  body?: string;
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
/** What the generator reads of an operation; its responses are for the response check. */
interface Operation extends DocumentedOperation {
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/**
 * Values the generator should use often, because the service's answer depends on them existing.
 * Read when each request is generated, so the test may replace them (a deleted article).
 */
export interface KnownValues {
  /** An article that exists: its id in paths and bodies reaches the code past the lookup. */
  articleId: number;
  /** A tag's id: a reference by id to it is taken, where a random id names no tag. */
  tagId: string;
  /** The known article's slug when it was created: current, or earlier once an update renamed it (a 301). */
  slug?: string;
  /** Cursors the service gave in its `Link` headers: the only ones it reads (word-rules.ts). */
  cursors?: string[];
  /** The API token, sent as a bearer token to the operations the document secures. */
  bearerToken?: string;
}

/** The known article's id, read when a request is generated. */
const knownArticleId = (known: KnownValues) => fc.constant(null).map(() => known.articleId);
/** A known value picked when a request is generated; the value drawn from the schema when none is known. */
const knownOr = (pick: (choice: number) => string | undefined, fromSchema: fc.Arbitrary<string>) =>
  fc.tuple(fc.nat(), fromSchema).map(([choice, drawn]) => pick(choice) ?? drawn);

/** The parts of a request before they are written as HTTP: parameters by location, the body as a value. */
interface RequestParts {
  method: string;
  template: string;
  path: Record<string, string>;
  query: Array<[string, string]>;
  /** A value for each query parameter of the operation, for a mutation that adds one it lacks. */
  spareQuery: Array<[string, string]>;
  headers: Record<string, string>;
  body?: { value: unknown };
  /** A valid value for each property of the body's schema, for a mutation that adds one it lacks. */
  spareBody: Record<string, unknown>;
}

const resolverOf = (document: OpenApiDocument) => (ref: string) => {
  const name = ref.replace('#/components/schemas/', '');
  const schema = document.components.schemas[name];
  if (!schema) throw new Error(`unresolved ${ref}`);
  return schema;
};

const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, template, operation })),
  );

/** Text a parameter carries; the known article's id, slug or a known cursor, often. */
function parameterArbitrary(document: OpenApiDocument, parameter: Parameter, known: KnownValues): fc.Arbitrary<string> {
  const unit = parameter.in === 'header' ? HEADER_CHARACTER : undefined;
  const fromSchema = schemaArbitrary(parameter.schema, resolverOf(document), unit).map(String);
  switch (parameter.name) {
    case 'id':
    case 'after':
      return fc.oneof(knownArticleId(known).map(String), fromSchema);
    case 'slug':
      return fc.oneof(
        knownOr(() => known.slug, fromSchema),
        fromSchema,
      );
    case 'cursor':
      return fc.oneof(
        knownOr((choice) => known.cursors?.[choice % known.cursors.length], fromSchema),
        fromSchema,
      );
    default:
      return fromSchema;
  }
}

/** Term references by id name the known tag, most of the time, so that creates and updates get through. */
function withKnownTermIds(body: Record<string, unknown>, known: KnownValues, choice: number): Record<string, unknown> {
  const references = body.tag;
  if (!Array.isArray(references)) return body;
  const renamed = references.map((reference, index) =>
    (choice + index) % 4 !== 0 && typeof reference === 'object' && reference !== null && 'id' in reference
      ? { ...reference, id: known.tagId }
      : reference,
  );
  return { ...body, tag: renamed };
}

/** A body valid against the schema, with the known article's and tag's ids, often. */
function bodyArbitrary(document: OpenApiDocument, schema: JsonSchema, known: KnownValues): fc.Arbitrary<unknown> {
  return fc.tuple(schemaArbitrary(schema, resolverOf(document)), fc.nat()).map(([body, choice]) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const withIds = withKnownTermIds(body as Record<string, unknown>, known, choice);
    // An article's id is a number; a key's (POST /key/revoke) is a string, never an article's.
    return choice % 2 === 0 && typeof withIds.id === 'number' ? { ...withIds, id: known.articleId } : withIds;
  });
}

/** A valid value for every property an object body may have, each drawn on its own. */
function spareBodyArbitrary(document: OpenApiDocument, schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const resolve = resolverOf(document);
  const properties = (schema.$ref === undefined ? schema : resolve(schema.$ref)).properties ?? {};
  return fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, schemaArbitrary(inner, resolve)])),
  );
}

function partsArbitrary(
  document: OpenApiDocument,
  entry: { method: string; template: string; operation: Operation },
  known: KnownValues,
): fc.Arbitrary<RequestParts> {
  const parameters = entry.operation.parameters ?? [];
  const valuesOf = (location: Parameter['in'], every = false) =>
    fc.record(
      Object.fromEntries(
        parameters.filter((p) => p.in === location).map((p) => [p.name, parameterArbitrary(document, p, known)]),
      ),
      {
        requiredKeys: parameters
          .filter((p) => p.in === location && (every || p.required || location === 'path'))
          .map((p) => p.name),
      },
    );
  const schema = entry.operation.requestBody?.content['application/json']?.schema;
  return fc
    .record({
      path: valuesOf('path'),
      query: valuesOf('query'),
      spareQuery: valuesOf('query', true),
      headers: valuesOf('header'),
      body: schema ? bodyArbitrary(document, schema, known).map((value) => ({ value })) : fc.constant(undefined),
      spareBody: schema ? spareBodyArbitrary(document, schema) : fc.constant({}),
    })
    .map((values) => ({
      method: entry.method,
      template: entry.template,
      path: values.path,
      // Drawn parameter by parameter; what the document says only in words, the generator keeps.
      query: queryKeepingWordRules(Object.entries(values.query), known),
      spareQuery: Object.entries(values.spareQuery),
      headers: {
        ...values.headers,
        ...(entry.operation.security?.length && known.bearerToken
          ? { authorization: `Bearer ${known.bearerToken}` }
          : {}),
      },
      body: values.body,
      spareBody: values.spareBody,
    }));
}

/** The parts as HTTP: parameters percent-encoded into the path, the body as JSON text. */
function written(parts: RequestParts): GeneratedRequest {
  const path = parts.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parts.path[name] ?? ''));
  const query = parts.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  const request: GeneratedRequest = {
    method: parts.method,
    path: query.length > 0 ? `${path}?${query.join('&')}` : path,
    headers: { ...parts.headers },
  };
  if (parts.body !== undefined) {
    request.headers['content-type'] = 'application/json';
    request.body = JSON.stringify(parts.body.value);
  }
  return request;
}

/** Whether Node's client can send it: a lone surrogate cannot be percent-encoded as UTF-8. */
function encodable(parts: RequestParts): boolean {
  return [...Object.values(parts.path), ...parts.query.map(([, value]) => value)].every((value) =>
    value.isWellFormed(),
  );
}

/** Every operation, the more often the more input it reads: that is where the two can disagree. */
function allPartsArbitrary(document: OpenApiDocument, known: KnownValues): fc.Arbitrary<RequestParts> {
  return fc.oneof(
    ...operationsOf(document).map((entry) => ({
      arbitrary: partsArbitrary(document, entry, known),
      weight: 1 + 3 * (entry.operation.parameters?.length ?? 0) + (entry.operation.requestBody ? 12 : 0),
    })),
  );
}

/**
 * Requests every operation of the document accepts, generated from its schemas, that also keep
 * the rules it states in words (word-rules.ts).
 */
export function validRequests(document: OpenApiDocument, known: KnownValues): fc.Arbitrary<GeneratedRequest> {
  return allPartsArbitrary(document, known)
    .filter(encodable)
    .map(written)
    .filter((request) => wordRulesOf(request, known).broken.length === 0);
}

/** Values near the edges of what the service parses, and of what JSON Schema checks. */
const EDGY_TEXT = fc.oneof(
  fc.constantFrom('', ' ', '0', '01', '1e2', '+5', '-1', '1.0', '101', '2147483648', 'x', '\u0000', '\ud800', '  \t'),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: fc.constantFrom('a', ' ', '😀'), minLength: 60, maxLength: 260 }),
);
const EDGY_VALUE = fc.oneof(EDGY_TEXT, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(0, -1, 1.5, 2 ** 31, true, null));

/** The places in a JSON value where a mutation can land: its nested objects and arrays. */
function containersOf(value: unknown): Array<Record<string, unknown> | unknown[]> {
  if (value === null || typeof value !== 'object') return [];
  const nested = Object.values(value).flatMap(containersOf);
  return [value as Record<string, unknown>, ...nested];
}

/**
 * One change to a body: a value replaced, a key dropped or added, a property of its schema that
 * it lacks added (with a value valid for it: `spare`), or the whole body replaced.
 */
function mutateBody(
  body: unknown,
  change: { kind: number; at: number; key: string },
  replacement: unknown,
  spare: Record<string, unknown>,
): unknown {
  const copy = structuredClone(body);
  const containers = containersOf(copy);
  const target = containers[change.at % Math.max(containers.length, 1)];
  if (target === undefined) return replacement;
  const keys = Object.keys(target);
  const existing = keys[Math.floor(change.at / Math.max(containers.length, 1)) % Math.max(keys.length, 1)];
  switch (change.kind % 5) {
    case 0:
      if (existing !== undefined) (target as Record<string, unknown>)[existing] = replacement;
      return copy;
    case 1:
      if (existing !== undefined && !Array.isArray(target)) delete target[existing];
      return copy;
    case 2:
      if (!Array.isArray(target)) target[change.key] = replacement;
      return copy;
    case 3: {
      if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) return copy;
      const lacking = Object.keys(spare).filter((name) => !(name in copy));
      const name = lacking[change.at % Math.max(lacking.length, 1)];
      if (name !== undefined) (copy as Record<string, unknown>)[name] = spare[name];
      return copy;
    }
    default:
      return replacement;
  }
}

/**
 * One change to the parameters: a value replaced with edgy text, a query parameter given twice,
 * left out, or added (one the operation has, with a value from its schema).
 */
function mutateParameters(parts: RequestParts, choice: number, replacement: string): RequestParts {
  const copy = structuredClone(parts);
  const given = new Set(copy.query.map(([name]) => name));
  const slots = [
    ...Object.keys(copy.path).map((name) => () => {
      copy.path[name] = replacement;
    }),
    ...copy.query.map((entry) => () => {
      entry[1] = replacement;
    }),
    ...copy.query.map((entry) => () => {
      copy.query.push([entry[0], replacement]);
    }),
    ...copy.query.map((entry) => () => {
      copy.query = copy.query.filter((other) => other !== entry);
    }),
    ...copy.spareQuery
      .filter(([name]) => !given.has(name))
      .map((entry) => () => {
        copy.query.push(entry);
      }),
    // Credentials are not the document's to judge: a wrong token is a 401, tested on its own.
    ...Object.keys(copy.headers)
      .filter((name) => name !== 'authorization')
      .map((name) => () => {
        // A header carries only what HTTP allows, and HTTP trims it (RFC 9110 §5.5): the edgy
        // text is made sendable, and one that would arrive empty has a space inside instead.
        const sendable = [...replacement]
          .filter((c) => c >= ' ' && c <= '~')
          .join('')
          .trim();
        copy.headers[name] = sendable === '' ? 'inner space' : sendable;
      }),
  ];
  slots[choice % Math.max(slots.length, 1)]?.();
  return copy;
}

/**
 * Requests near the edge of the document: a valid request with one change to a parameter or
 * the body. Many are invalid, some stay valid; which is which is for a validator to say.
 */
export function mutatedRequests(document: OpenApiDocument, known: KnownValues): fc.Arbitrary<GeneratedRequest> {
  return fc
    .record({
      parts: allPartsArbitrary(document, known),
      kind: fc.nat(),
      at: fc.nat(),
      key: fc.string({ maxLength: 6 }),
      value: EDGY_VALUE,
      text: EDGY_TEXT,
      onBody: fc.boolean(),
    })
    .map(({ parts, kind, at, key, value, text, onBody }) => {
      if (onBody && parts.body !== undefined) {
        return { ...parts, body: { value: mutateBody(parts.body.value, { kind, at, key }, value, parts.spareBody) } };
      }
      return mutateParameters(parts, at, text);
    })
    .filter(encodable)
    .map(written);
}
