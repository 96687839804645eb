import {
  buildASTSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  parse,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { readSubgraphSdls } from '@campaign/schema';

/**
 * Every place a GraphQL client can put a value of a custom scalar (SafeInt ids, Decimal,
 * DateTimeISO, JSONObject), found in the committed subgraph SDLs: each root field's arguments
 * and, inside input objects and lists, each of their fields. The gateway cannot check these
 * scalars (the supergraph names them only); the subgraph that defines them does, so a bad value
 * there is the class of issue 21 item 1.
 */
export interface ScalarPlace {
  operation: 'query' | 'mutation';
  field: string;
  /** The GraphQL text of the variable definitions and the field's arguments. */
  document: string;
  /** Valid values for every required argument: the place under test is replaced. */
  variables: Record<string, unknown>;
  /** Where the scalar sits: the argument, then fields and list indexes (`input.lines.0.partnerId`). */
  path: (string | number)[];
  scalar: string;
}

const SAMPLE: Record<string, unknown> = {
  String: 'x',
  ID: '1',
  Int: 1,
  Float: 1,
  Boolean: true,
  SafeInt: 1,
  Decimal: '1.00',
  DateTimeISO: '2026-01-01T00:00:00Z',
  JSONObject: {},
};

const BUILT_IN = new Set(['String', 'ID', 'Int', 'Float', 'Boolean']);

/** A value GraphQL coerces for `type` (required parts only; lists with one item). */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isScalarType(type)) return SAMPLE[type.name] ?? 'x';
  if (isEnumType(type)) return type.getValues()[0]!.name;
  const value: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields()))
    if (isNonNullType(field.type) && field.defaultValue === undefined)
      value[field.name] = sample(field.type);
  return value;
}

/** The paths to custom scalars inside a value of `type`, each with the value to put them in. */
function* scalarsIn(
  type: GraphQLInputType,
  path: (string | number)[],
  seen: Set<string>,
): Generator<{ path: (string | number)[]; scalar: string }> {
  const named = getNamedType(type);
  if (isScalarType(named)) {
    if (!BUILT_IN.has(named.name)) yield { path, scalar: named.name };
    return;
  }
  if (!isInputObjectType(named) || seen.has(named.name)) return;
  const list = isListType(isNonNullType(type) ? type.ofType : type);
  for (const field of Object.values(named.getFields()))
    yield* scalarsIn(
      field.type,
      [...path, ...(list ? [0] : []), field.name],
      new Set([...seen, named.name]),
    );
}

/** `value` with the place at `path` replaced by `replacement` (parents created as needed). */
export function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = replaced(
    copy[head!] ?? (typeof rest[0] === 'number' ? [{}] : {}),
    rest,
    replacement,
  );
  return copy;
}

function placesOf(schema: GraphQLSchema): ScalarPlace[] {
  const places: ScalarPlace[] = [];
  for (const operation of ['query', 'mutation'] as const) {
    const root = operation === 'query' ? schema.getQueryType() : schema.getMutationType();
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (field.name.startsWith('_')) continue;
      const definitions = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const selection = isScalarType(getNamedType(field.type)) ? '' : ' { __typename }';
      const document = `${operation}(${definitions}) { ${field.name}(${args})${selection} }`;
      const variables = Object.fromEntries(
        field.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, sample(a.type)]),
      );
      for (const arg of field.args)
        for (const { path, scalar } of scalarsIn(arg.type, [arg.name], new Set()))
          places.push({ operation, field: field.name, document, variables, path, scalar });
    }
  }
  return places;
}

/** Every custom-scalar place of every subgraph. */
export async function customScalarPlaces(): Promise<ScalarPlace[]> {
  const sdls = await readSubgraphSdls();
  return Object.values(sdls).flatMap((sdl) =>
    placesOf(buildASTSchema(parse(sdl), { assumeValidSDL: true })),
  );
}
