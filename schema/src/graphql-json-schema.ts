import {
  buildASTSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  typeFromAST,
  type FieldNode,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { fieldRule, withPatterns, withRule, type InputRules } from './json-schema-rules.js';

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) of what a GraphQL operation takes and answers,
 * read from a committed subgraph SDL: the REST adapter's routes are GraphQL operations, so their
 * bodies, parameters and answers are these types (the OpenAPI document of the settlement paths
 * is built from them, never written by hand).
 *
 * Input schemas are never stricter than GraphQL's own coercion and the subgraph's input rules (a
 * body they refuse, the subgraph refuses too, with the same 400): ID takes a string or an integer,
 * custom scalars take what their parser takes, and the rules the subgraph reads its inputs with
 * (its zod models as JSON Schema, `InputRules`) add their lengths, ranges and formats, so that
 * nothing they accept is refused for its shape either (issue 21). Output schemas say exactly what is serialised: every selected field is
 * present, null only where the field is nullable, nothing else.
 */

export type JsonSchema = Record<string, unknown>;

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Output scalars as serialised. Decimal always has two decimals (schema/src/decimal-scalar.ts). */
const OUTPUT_SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  SafeInt: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  Decimal: {
    type: 'string',
    pattern: '^-?\\d{1,13}\\.\\d{2}$',
    description: 'A decimal number as a string with two decimals, e.g. "1000000.00".',
  },
  DateTimeISO: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object' },
};

/** Input scalars as GraphQL coerces them (loosest form, so validation in front adds nothing). */
const INPUT_SCALARS: Record<string, JsonSchema> = {
  ...OUTPUT_SCALARS,
  // GraphQL's Int is 32 bits; SafeInt what a JavaScript number holds exactly.
  Int: { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 },
  SafeInt: {
    type: 'integer',
    minimum: Number.MIN_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
  },
  ID: { type: ['string', 'integer'] },
  Decimal: { type: 'string', description: 'A decimal string, e.g. "1000000.00".' },
  DateTimeISO: { type: 'string' },
};

/** `schema`, or null too. */
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema['$ref'] === 'string') return { anyOf: [schema, { type: 'null' }] };
  const type = schema['type'];
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

const withDescription = (schema: JsonSchema, description?: string | null): JsonSchema =>
  description ? { ...schema, description } : schema;

export interface VariableShape {
  name: string;
  /** Non-null in the operation: GraphQL refuses the request without it. */
  required: boolean;
  schema: JsonSchema;
  /** The named GraphQL type (an input object's name, a scalar's, an enum's). */
  typeName: string;
}

export interface OperationShape {
  /** The root field the operation selects (its one field, aliased `result`). */
  field: string;
  description: string | null;
  variables: VariableShape[];
  /** The `result` selection, as the response's `data`. */
  result: JsonSchema;
  /** Descriptions of the root field's arguments, by name. */
  argumentDescriptions: Record<string, string>;
}

/**
 * Builds schemas against one SDL. Named types become component schemas in `components`:
 * input objects and enums by their GraphQL name; an object type by its name for the first
 * selection of it, and `<prefix><Name>` for a different selection (the partner's settlement
 * selects fewer fields than the admin's), so each component is exactly what one answer holds.
 */
export class GraphQLJsonSchema {
  readonly components: Record<string, JsonSchema> = {};
  private readonly schema: GraphQLSchema;

  /** `rules`: the subgraph's input rules as JSON Schema, laid over GraphQL's types. */
  constructor(
    sdl: string,
    private readonly rules?: InputRules,
  ) {
    this.schema = buildASTSchema(parse(sdl), { assumeValidSDL: true });
  }

  /** The shape of one operation document; `prefix` names variant selections. */
  operation(document: string, prefix: string): OperationShape {
    const definition = parse(document).definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    if (!definition) throw new Error(`no operation in ${document}`);
    const root =
      definition.operation === 'mutation'
        ? this.schema.getMutationType()
        : this.schema.getQueryType();
    const node = definition.selectionSet.selections[0] as FieldNode;
    const field = root?.getFields()[node.name.value];
    if (!root || !field) throw new Error(`unknown root field ${node.name.value}`);
    const variables = (definition.variableDefinitions ?? []).map((v) => {
      const type = typeFromAST(this.schema, v.type) as GraphQLInputType | undefined;
      if (!type) throw new Error(`unknown variable type in ${document}`);
      const name = v.variable.name.value;
      const argumentRule = isScalarType(getNamedType(type))
        ? this.rules?.arguments[name]
        : undefined;
      return {
        name,
        required: isNonNullType(type),
        schema: withRule(this.input(type), argumentRule),
        typeName: getNamedType(type).name,
      };
    });
    return {
      field: field.name,
      description: field.description ?? null,
      variables,
      result: this.output(field.type, node.selectionSet, prefix),
      argumentDescriptions: Object.fromEntries(
        field.args.filter((a) => a.description).map((a) => [a.name, a.description!]),
      ),
    };
  }

  /** The fields of an input object, each as its value's schema (query parameters of a filter). */
  inputFields(
    typeName: string,
  ): { name: string; schema: JsonSchema; description: string | null }[] {
    const type = this.schema.getType(typeName);
    if (!isInputObjectType(type)) throw new Error(`${typeName} is not an input type`);
    return Object.values(type.getFields()).map((f) => ({
      name: f.name,
      schema: withRule(
        this.inputInner(getNamedType(f.type) as GraphQLInputType),
        fieldRule(this.rules, typeName, f.name),
      ),
      description: f.description ?? null,
    }));
  }

  /** An input type; nullable unless non-null. */
  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.inputInner(type.ofType);
    return orNull(this.inputInner(type));
  }

  private inputInner(type: GraphQLInputType): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    if (isScalarType(type)) return this.withText(INPUT_SCALARS[type.name] ?? {});
    if (isEnumType(type)) return this.enumRef(type);
    if (!isInputObjectType(type)) throw new Error(`unexpected input type ${String(type)}`);
    if (!this.components[type.name]) {
      this.components[type.name] = {}; // placeholder: a recursive input refers to itself
      const fields = Object.values(type.getFields());
      this.components[type.name] = withDescription(
        {
          type: 'object',
          additionalProperties: false,
          required: fields
            .filter((f) => isNonNullType(f.type) && f.defaultValue === undefined)
            .map((f) => f.name),
          properties: Object.fromEntries(
            fields.map((f) => [
              f.name,
              withDescription(
                {
                  ...withRule(this.input(f.type), fieldRule(this.rules, type.name, f.name)),
                  ...(f.defaultValue !== undefined ? { default: f.defaultValue } : {}),
                },
                f.description,
              ),
            ]),
          ),
        },
        type.description,
      );
    }
    return schemaRef(type.name);
  }

  /** A scalar that takes text, with the rule every string input obeys (`InputRules.text`). */
  private withText(schema: JsonSchema): JsonSchema {
    const type = schema['type'];
    const text = type === 'string' || (Array.isArray(type) && type.includes('string'));
    const pattern = this.rules?.text?.['pattern'];
    if (!text || typeof pattern !== 'string') return schema;
    return withPatterns(schema, [
      ...(schema['pattern'] ? [String(schema['pattern'])] : []),
      pattern,
    ]);
  }

  private enumRef(type: GraphQLEnumType): JsonSchema {
    this.components[type.name] ??= withDescription(
      { type: 'string', enum: type.getValues().map((v) => v.name) },
      type.description,
    );
    return schemaRef(type.name);
  }

  /** An output type with its selection; nullable unless non-null. */
  private output(type: GraphQLOutputType, selection: SelectionSetNode | undefined, prefix: string) {
    if (isNonNullType(type)) return this.outputInner(type.ofType, selection, prefix);
    return orNull(this.outputInner(type, selection, prefix));
  }

  private outputInner(
    type: GraphQLOutputType,
    selection: SelectionSetNode | undefined,
    prefix: string,
  ): JsonSchema {
    if (isListType(type))
      return { type: 'array', items: this.output(type.ofType, selection, prefix) };
    if (isScalarType(type)) return OUTPUT_SCALARS[type.name] ?? {};
    if (isEnumType(type)) return this.enumRef(type);
    if (!isObjectType(type) || !selection) throw new Error(`cannot select ${String(type)}`);
    const fields = type.getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const node of selection.selections) {
      if (node.kind !== Kind.FIELD) throw new Error('fragments are not used by the routes');
      const field = fields[node.name.value];
      if (!field) throw new Error(`${type.name} has no field ${node.name.value}`);
      properties[node.alias?.value ?? field.name] = withDescription(
        this.output(field.type, node.selectionSet, prefix),
        field.description,
      );
    }
    const schema = withDescription(
      {
        type: 'object',
        additionalProperties: false,
        required: Object.keys(properties),
        properties,
      },
      type.description,
    );
    return schemaRef(this.nameFor(type.name, schema, prefix));
  }

  /** The component name of this selection of `typeName`: the same selection, the same name. */
  private nameFor(typeName: string, schema: JsonSchema, prefix: string): string {
    const text = JSON.stringify(schema);
    for (const name of [typeName, `${prefix}${typeName}`]) {
      const existing = this.components[name];
      if (!existing) {
        this.components[name] = schema;
        return name;
      }
      if (JSON.stringify(existing) === text) return name;
    }
    throw new Error(`a third selection of ${typeName} needs a name of its own`);
  }
}
