/**
 * The rules a subgraph reads its inputs with (zod, as JSON Schema), laid over the JSON Schema of
 * GraphQL's types: GraphQL says "a string, or null"; the rule adds what the service checks
 * besides (1 to 200 characters, a pattern, 1 to 100, never null). A published document built this
 * way never accepts a value the service refuses for its shape (issue 21).
 */
type Schema = Record<string, unknown>;

/**
 * The rules of one subgraph: by input type name (an object's properties), by argument, and
 * `text`, what every string input obeys besides (the platform's text rule).
 */
export interface InputRules {
  types: Record<string, Schema>;
  arguments: Record<string, Schema>;
  text?: Schema;
}

/** What a rule says about structure is GraphQL's to say (and is said there, with $refs). */
const STRUCTURE = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'description',
  'default',
]);

const isNull = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && (schema as Schema)['type'] === 'null';

/** A rule without its "or null": whether it takes null, and what it says of a value. */
function split(rule: Schema): { nullable: boolean; value: Schema } {
  const anyOf = rule['anyOf'];
  if (Array.isArray(anyOf) && anyOf.some(isNull)) {
    const rest = anyOf.filter((branch) => !isNull(branch)) as Schema[];
    const { anyOf: _anyOf, ...others } = rule;
    const value = rest.length === 1 ? { ...others, ...rest[0] } : { ...others, anyOf: rest };
    return { nullable: true, value: split(value).value };
  }
  const type = rule['type'];
  if (Array.isArray(type) && type.includes('null')) {
    const kept = type.filter((t) => t !== 'null');
    return { nullable: true, value: { ...rule, type: kept.length === 1 ? kept[0] : kept } };
  }
  return { nullable: false, value: rule };
}

/** `schema` without null (GraphQL's nullable input that the rule never takes as null). */
function withoutNull(schema: Schema): Schema {
  const type = schema['type'];
  if (Array.isArray(type)) {
    const kept = type.filter((t) => t !== 'null');
    return { ...schema, type: kept.length === 1 ? kept[0] : kept };
  }
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf) && anyOf.some(isNull)) {
    const { anyOf: _anyOf, ...others } = schema;
    const rest = anyOf.filter((branch) => !isNull(branch)) as Schema[];
    return rest.length === 1 ? { ...others, ...rest[0] } : { ...others, anyOf: rest };
  }
  return schema;
}

/**
 * GraphQL's schema of one value with its rule laid over: the rule's limits added, null taken
 * away where the rule refuses it. No rule: GraphQL's schema as it is.
 */
export function withRule(schema: Schema, rule: Schema | undefined): Schema {
  if (!rule) return schema;
  const { nullable, value } = split(rule);
  const limits = Object.fromEntries(Object.entries(value).filter(([key]) => !STRUCTURE.has(key)));
  const base = nullable ? schema : withoutNull(schema);
  if (!Object.keys(limits).length) return base;
  // A $ref (an enum, an input object) is GraphQL's; its limits are its own.
  if (typeof base['$ref'] === 'string' || Array.isArray(base['anyOf'])) return base;
  // The rule's bound on a side replaces the type's (SafeInt's range under "positive").
  const merged: Schema = { ...base };
  for (const side of BOUNDS)
    if (side.some((key) => key in limits)) for (const key of side) delete merged[key];
  return withPatterns({ ...merged, ...limits }, [...patternsOf(base), ...patternsOf(limits)]);
}

/** The patterns a schema requires: its own and those of its `allOf`. */
const patternsOf = (schema: Schema): string[] => [
  ...(typeof schema['pattern'] === 'string' ? [schema['pattern']] : []),
  ...((schema['allOf'] as Schema[] | undefined) ?? []).flatMap(patternsOf),
];

/**
 * `schema` requiring each of `patterns`: the last (the most particular: a rule's own) as its
 * `pattern`, so that a refusal by it is the schema's (with its `x-error-code`), the others in
 * `allOf`.
 */
export function withPatterns(schema: Schema, patterns: string[]): Schema {
  const { pattern: _pattern, allOf: _allOf, ...rest } = schema;
  const distinct = [...new Set(patterns)];
  const last = distinct.pop();
  if (last === undefined) return rest;
  return {
    ...rest,
    ...(distinct.length ? { allOf: distinct.map((p) => ({ pattern: p })) } : {}),
    pattern: last,
  };
}

/** The two keywords of each side of a numeric range. */
const BOUNDS = [
  ['minimum', 'exclusiveMinimum'],
  ['maximum', 'exclusiveMaximum'],
] as const;

/** The rule of field `field` of input type `typeName`, if the subgraph has one. */
export function fieldRule(
  rules: InputRules | undefined,
  typeName: string,
  field: string,
): Schema | undefined {
  const properties = rules?.types[typeName]?.['properties'] as Record<string, Schema> | undefined;
  return properties?.[field];
}
