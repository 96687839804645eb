import fc from 'fast-check';

/**
 * Values a JSON Schema (the subset the settlement document uses) describes, as a fast-check
 * arbitrary: objects with their required and some optional properties, arrays, integers in
 * their range, strings of their patterns and lengths, enums, null where allowed. The test that
 * uses it keeps only what the document itself (ajv) accepts, so a gap here makes fewer cases,
 * never a wrong one.
 */
type Schema = Record<string, unknown>;

const MAX_ITEMS = 3;

function resolve(doc: Schema, schema: Schema): Schema {
  const pointer = schema['$ref'];
  if (typeof pointer !== 'string') return schema;
  const target = pointer
    .slice(2)
    .split('/')
    .reduce<Schema>((node, key) => node[key] as Schema, doc);
  return resolve(doc, target);
}

/** The patterns a string must match (its own and those of `allOf`). */
const patternsOf = (schema: Schema): string[] => [
  ...(typeof schema['pattern'] === 'string' ? [schema['pattern']] : []),
  ...((schema['allOf'] as Schema[] | undefined) ?? []).flatMap(patternsOf),
];

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = (schema['minLength'] as number | undefined) ?? 0;
  const max = (schema['maxLength'] as number | undefined) ?? 40;
  const patterns = patternsOf(schema).map((p) => new RegExp(p, 'u'));
  const fits = (text: string) =>
    text.length >= min && text.length <= max && patterns.every((p) => p.test(text));
  if (schema['format'] === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10))
      .filter(fits);
  // Each pattern draws in turn; the others and the lengths filter (a general pattern such as the
  // text rule's draws little that a particular one accepts, so the particular one draws too).
  const base = patterns.length
    ? fc.oneof(...patterns.map((p) => fc.stringMatching(p)))
    : fc.oneof(
        fc.string({ minLength: min, maxLength: Math.min(max, min + 40) }),
        fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, min + 20) }),
      );
  return base.filter(fits);
}

function integerOf(schema: Schema): fc.Arbitrary<number> {
  const exclusiveMin = schema['exclusiveMinimum'] as number | undefined;
  const exclusiveMax = schema['exclusiveMaximum'] as number | undefined;
  const min = exclusiveMin !== undefined ? exclusiveMin + 1 : (schema['minimum'] as number);
  const max = exclusiveMax !== undefined ? exclusiveMax - 1 : (schema['maximum'] as number);
  const range = {
    min: min ?? Number.MIN_SAFE_INTEGER,
    max: max ?? Number.MAX_SAFE_INTEGER,
  };
  // The bounds themselves, where a server is most likely to disagree, and anything between.
  return fc.oneof(
    fc.constantFrom(range.min, range.max),
    fc.maxSafeInteger().filter((n) => n >= range.min && n <= range.max),
    fc.integer({ min: Math.max(range.min, -1000), max: Math.min(range.max, 1000) }),
  );
}

/** Values of `schema` (resolved against `doc`). */
export function valuesOf(doc: Schema, raw: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  if (Array.isArray(schema['anyOf']) && schema['type'] === undefined)
    return fc.oneof(...(schema['anyOf'] as Schema[]).map((branch) => valuesOf(doc, branch)));
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type']];
  const options = types.map((type): fc.Arbitrary<unknown> => {
    const typed = { ...schema, type };
    if (type === 'null') return fc.constant(null);
    if (type === 'boolean') return fc.boolean();
    if (type === 'integer') return integerOf(typed);
    if (type === 'number') return fc.double({ noNaN: true, noDefaultInfinity: true });
    if (type === 'string') {
      const branches = schema['anyOf'] as Schema[] | undefined;
      if (branches) return fc.oneof(...branches.map((branch) => stringOf({ ...typed, ...branch })));
      return stringOf(typed);
    }
    if (type === 'array') {
      const min = (schema['minItems'] as number | undefined) ?? 0;
      return fc.array(valuesOf(doc, schema['items'] as Schema), {
        minLength: min,
        maxLength: Math.max(min, Math.min((schema['maxItems'] as number) ?? MAX_ITEMS, MAX_ITEMS)),
      });
    }
    if (type === 'object') {
      const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
      const required = (schema['required'] as string[] | undefined) ?? [];
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valuesOf(doc, v)])),
        { requiredKeys: required },
      );
    }
    return fc.constant(null);
  });
  return fc.oneof(...options);
}
