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
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** A string's format: its pattern, which the document gives too, generates it (date-time: its edges too). */
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  /** Only `{required}` on an object and `{pattern}` on a string: values matching it are left out. */
  not?: Pick<JsonSchema, 'required' | 'pattern'>;
}

/** Resolves `#/components/schemas/…` references against the document. */
export type ResolveRef = (ref: string) => JsonSchema;

/**
 * How a generated string is constrained: the length in code points and the pattern, as JSON
 * Schema counts, and the pattern it must not match.
 */
function fitsString(schema: JsonSchema, text: string): boolean {
  const length = [...text].length;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  if (schema.not?.pattern !== undefined && new RegExp(schema.not.pattern, 'u').test(text)) return false;
  return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(text);
}

/** An object schema's `not: {required}`: the object may not have every one of those keys. */
const fitsObject = (schema: JsonSchema, value: object) =>
  schema.not?.required === undefined || !schema.not.required.every((key) => key in value);

/** The generator knows `not` only in the two forms the document uses; any other would be ignored, so it throws. */
function checkNot(schema: JsonSchema): void {
  const keys = Object.keys(schema.not ?? {});
  const known = schema.type === 'object' ? ['required'] : schema.type === 'string' ? ['pattern'] : [];
  if (keys.some((key) => !known.includes(key)))
    throw new Error(`no arbitrary for the schema ${JSON.stringify(schema)}`);
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
  if (schema.format === 'date-time') candidates.push(EDGE_DATE_TIMES);
  return fc.oneof(...candidates).filter((text) => fitsString(schema, text));
}

const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));

/**
 * Date-times on the days where the year in UTC may leave 1 to 9999, depending on the offset
 * (word-rules.ts): random dates almost never reach them.
 */
const EDGE_DATE_TIMES = fc
  .record({
    day: fc.constantFrom('0000-12-31', '0001-01-01', '9999-12-31'),
    time: fc.tuple(twoDigits(23), twoDigits(59), twoDigits(59)).map((parts) => parts.join(':')),
    offset: fc.oneof(
      fc.constant('Z'),
      fc.tuple(fc.constantFrom('+', '-'), twoDigits(23), twoDigits(59)).map(([sign, h, m]) => `${sign}${h}:${m}`),
    ),
  })
  .map(({ day, time, offset }) => `${day}T${time}${offset}`);

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
  checkNot(schema);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: schema.maximum ?? 2 ** 31 - 1 });
    case 'number':
      return fc.double({
        min: schema.exclusiveMinimum ?? schema.minimum ?? -1e9,
        minExcluded: schema.exclusiveMinimum !== undefined,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string':
      return stringArbitrary(schema, unit);
    case 'array':
      return fc.array(of(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(Math.min(schema.maxItems ?? 4, 4), schema.minItems ?? 0),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      return fc
        .record(Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, of(inner)])), {
          requiredKeys: (schema.required ?? []).filter((name) => name in properties),
        })
        .filter((value) => fitsObject(schema, value));
    }
    default:
      throw new Error(`no arbitrary for the schema ${JSON.stringify(schema)}`);
  }
}
