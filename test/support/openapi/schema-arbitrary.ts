import fc from 'fast-check';

/** The part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) the service's document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/** Resolves `#/components/schemas/…` references against the document. */
export type ResolveRef = (ref: string) => JsonSchema;

/** How a generated string is constrained: the length in code points and the pattern, as JSON Schema counts. */
function fitsString(schema: JsonSchema, text: string): boolean {
  const length = [...text].length;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(text);
}

/**
 * Text candidates for a string schema: what its pattern generates, and text from all of Unicode
 * up to and at its length bounds; those that do not fit are filtered out (rare).
 */
function stringArbitrary(schema: JsonSchema, unit: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 300);
  const candidates: Array<fc.Arbitrary<string>> = [fc.string({ unit, minLength, maxLength })];
  if (schema.pattern !== undefined) candidates.push(fc.stringMatching(new RegExp(schema.pattern, 'u')));
  if (schema.maxLength !== undefined) candidates.push(fc.string({ unit, minLength: maxLength, maxLength }));
  return fc.oneof(...candidates).filter((text) => fitsString(schema, text));
}

/** Any character text may hold: all of Unicode, astral ones included, and plain letters often. */
export const ANY_CHARACTER = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('a', 'Z', ' ', '\t', 'é', 'ß', 'Σ', 'ς', '\u0301', '😀', '\ufffd', '\uffff'),
);

/** What an HTTP header value may hold: visible ASCII and the space. */
export const HEADER_CHARACTER = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }).filter((c) => {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e;
});

/**
 * Values valid against `schema`: a fast-check arbitrary derived from the document's own schema.
 * `unit` is the character of free text (headers hold less than bodies do).
 */
export function schemaArbitrary(
  schema: JsonSchema,
  resolve: ResolveRef,
  unit: fc.Arbitrary<string> = ANY_CHARACTER,
): fc.Arbitrary<unknown> {
  const of = (inner: JsonSchema) => schemaArbitrary(inner, resolve, unit);
  if (schema.$ref !== undefined) return of(resolve(schema.$ref));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined) return fc.oneof(...branches.map(of));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => of({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: schema.maximum ?? 2 ** 31 - 1 });
    case 'string':
      return stringArbitrary(schema, unit);
    case 'array':
      return fc.array(of(schema.items ?? {}), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object': {
      const properties = schema.properties ?? {};
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, of(inner)])), {
        requiredKeys: (schema.required ?? []).filter((name) => name in properties),
      });
    }
    default:
      throw new Error(`no arbitrary for the schema ${JSON.stringify(schema)}`);
  }
}
