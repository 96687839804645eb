import { GraphQLString } from 'graphql';
import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import type { z } from 'zod';
import { graphqlMeta, type GraphQLMeta } from '@campaign/schema';
import type { LensOperationContract } from '@campaign/schema';
import { typeName } from '@campaign/schema';

/**
 * The GraphQL input type of a lens operation, derived from its contract's zod schema (the one
 * that parses the input), so that the GraphQL shape cannot drift from the rules. GraphQL knows
 * no "exactly one of" input, so an exclusive union of objects (AccountRef) becomes one input
 * type whose fields are all nullable; the rules then refuse anything but one form.
 */

type TypeThunk = NonNullable<Parameters<typeof Field>[0]>;
type GraphQLType = ReturnType<TypeThunk>;

/** The parts of zod's schema definitions read here (zod 4 `schema.def`). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  entries?: Record<string, string>;
  format?: string;
  defaultValue?: unknown;
}

const defOf = (schema: z.ZodType) => schema.def as unknown as Def;

/** Types made once per schema: AccountRef is shared by every operation. */
const made = new Map<z.ZodType, GraphQLType>();

interface Peeled {
  inner: z.ZodType;
  /** GraphQL may leave the field out (optional, nullable or defaulted). */
  optional: boolean;
  defaultValue?: unknown;
  /** The GraphQL texts of the wrappers (an outer one wins), not those of the value's own schema. */
  meta: GraphQLMeta;
}

/** Unwraps optional, nullable, default and transform layers down to the value's own schema. */
function peel(schema: z.ZodType): Peeled {
  const peeled: Peeled = { inner: schema, optional: false, meta: {} };
  for (;;) {
    const def = defOf(peeled.inner);
    const next = def.type === 'pipe' ? def.in : def.innerType;
    if (!next || !['optional', 'nullable', 'default', 'pipe'].includes(def.type)) return peeled;
    peeled.meta = { ...graphqlMeta.get(peeled.inner), ...peeled.meta };
    if (def.type !== 'pipe') peeled.optional = true;
    if (def.type === 'default') peeled.defaultValue = def.defaultValue;
    peeled.inner = next;
  }
}

function typeOf(schema: z.ZodType): GraphQLType {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return GraphQLString;
    case 'number':
      if (def.format === 'safeint' || def.format === 'int32') return Int;
      break;
    case 'array':
      return [typeOf(peel(def.element!).inner)];
    case 'enum':
      return named(schema, (name) => {
        const values = { ...def.entries! };
        registerEnumType(values, { name });
        return values;
      });
    case 'union':
      return named(schema, (name) =>
        inputClass(name, schema, {
          // Every form's fields, each optional: the rules require exactly one form.
          ...Object.fromEntries(
            def.options!.flatMap((option) => Object.entries(defOf(option).shape!)),
          ),
        }),
      );
  }
  throw new Error(`no GraphQL input type for a zod ${def.type}`);
}

function named(schema: z.ZodType, make: (name: string) => GraphQLType): GraphQLType {
  let type = made.get(schema);
  if (!type) {
    const name = graphqlMeta.get(schema)?.name;
    if (!name) throw new Error('a GraphQL enum or input object needs a name (graphqlMeta)');
    made.set(schema, (type = make(name)));
  }
  return type;
}

/**
 * An input class with one GraphQL field per property, in their order. A field's description is
 * its own (a wrapper's or its scalar's); a named type's description stays on the type.
 */
function inputClass(
  name: string,
  owner: z.ZodType,
  shape: Record<string, z.ZodType>,
  forceOptional = defOf(owner).type === 'union',
) {
  const Input = { [name]: class {} }[name]!;
  for (const [field, schema] of Object.entries(shape)) {
    const peeled = peel(schema);
    const type = typeOf(peeled.inner);
    const namedType = graphqlMeta.get(peeled.inner)?.name !== undefined;
    const description =
      peeled.meta.description ??
      (namedType ? undefined : graphqlMeta.get(peeled.inner)?.description);
    Field(() => type, {
      nullable: forceOptional || peeled.optional,
      ...(description === undefined ? {} : { description }),
      ...(peeled.meta.showDefault ? { defaultValue: peeled.defaultValue } : {}),
    })(Input.prototype, field);
  }
  const description = graphqlMeta.get(owner)?.description;
  InputType(name, description === undefined ? {} : { description })(Input);
  return Input;
}

/** `Accounts<Name>Input`: the operation's `input` argument. */
export function operationInputType(contract: LensOperationContract): GraphQLType {
  const { inner } = peel(contract.input);
  const shape = defOf(inner).shape;
  if (!shape) throw new Error(`${contract.name}: the input is not an object`);
  return inputClass(typeName(contract, 'Input'), inner, shape);
}
