import { z } from 'zod';
import { typeName, type LensOperationContract } from './lens-operations.js';

type Schema = Record<string, unknown>;

/**
 * The request schemas of the lens OpenAPI document, made from the operations' zod schemas
 * (z.toJSONSchema on their input side). The document is committed and reviewed, so its layout
 * does not follow zod's: keywords are written in one fixed order, a nullable value is
 * `type: [t, "null"]`, and shared schemas (AccountRef) are components.
 */

/** Every keyword a request schema may use, in the order the document writes them. */
const KEYWORD_ORDER = [
  '$ref',
  'type',
  'additionalProperties',
  'required',
  'properties',
  'minItems',
  'maxItems',
  'items',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'enum',
  'default',
  'description',
  'oneOf',
  'not',
  'anyOf',
  'dependentSchemas',
];
/** Keywords whose value maps names to schemas (the names keep their order). */
const SCHEMA_MAPS = new Set(['properties', 'dependentSchemas']);
const COMPONENTS = '#/components/schemas/';

const isNull = (s: unknown) =>
  typeof s === 'object' &&
  s !== null &&
  Object.keys(s).length === 1 &&
  'type' in s &&
  s.type === 'null';

/** `{anyOf: [{type: t, ...}, {type: "null"}], ...}` → `{type: [t, "null"], ...}`. */
function collapseNullable(schema: Schema): Schema {
  const anyOf = schema['anyOf'];
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || !anyOf.some(isNull)) return schema;
  const { anyOf: _, ...outer } = schema;
  const value = anyOf.find((s) => !isNull(s)) as Schema;
  if (typeof value['type'] !== 'string') return schema;
  return { ...outer, ...value, type: [value['type'], 'null'] };
}

/**
 * `anyOf` closed objects that share no property and each require one: no value can match two of
 * them, so the union is exclusive and the document says so (`oneOf`).
 */
function exclusiveUnion(schema: Schema): Schema {
  const { anyOf, ...rest } = schema;
  if (!Array.isArray(anyOf)) return schema;
  const forms = anyOf as Schema[];
  const names = forms.map((f) => Object.keys((f['properties'] as Schema | undefined) ?? {}));
  const closed = forms.every(
    (f) => f['additionalProperties'] === false && (f['required'] as unknown[] | undefined)?.length,
  );
  const disjoint = new Set(names.flat()).size === names.flat().length;
  return closed && disjoint ? { ...rest, oneOf: anyOf } : schema;
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const schema = exclusiveUnion(collapseNullable(value as Schema));
  const unknown = Object.keys(schema).filter((k) => !KEYWORD_ORDER.includes(k));
  if (unknown.length) throw new Error(`request schema keyword not placed: ${unknown.join(', ')}`);
  const ordered: Schema = {};
  for (const keyword of KEYWORD_ORDER) {
    if (!(keyword in schema)) continue;
    const inner = schema[keyword];
    if (keyword === '$ref') ordered[keyword] = String(inner).replace('#/$defs/', COMPONENTS);
    else if (SCHEMA_MAPS.has(keyword))
      ordered[keyword] = Object.fromEntries(
        Object.entries(inner as Schema).map(([name, s]) => [name, tidy(s)]),
      );
    else ordered[keyword] = tidy(inner);
  }
  return ordered;
}

/**
 * `Accounts<Name>Request` for each operation, and the shared schemas they reference (by their
 * zod `id`), both as the document writes them.
 */
export function requestSchemas(contracts: readonly LensOperationContract[]): {
  requests: Record<string, Schema>;
  shared: Record<string, Schema>;
} {
  const requests: Record<string, Schema> = {};
  const shared: Record<string, Schema> = {};
  for (const contract of contracts) {
    const {
      $schema: _,
      $defs: defs = {},
      ...body
    } = z.toJSONSchema(contract.input, {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'throw',
    });
    requests[typeName(contract, 'Request')] = tidy(body) as Schema;
    for (const [id, schema] of Object.entries(defs)) shared[id] = tidy(schema) as Schema;
  }
  return { requests, shared };
}
