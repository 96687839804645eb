import { registerEnumType } from 'type-graphql';

/** The union of an enumeration's values: `type CampaignStatus = EnumValue<typeof CampaignStatus>`. */
export type EnumValue<E> = E[keyof E];

/** `{ A: 'A', B: 'B' }` from `['A', 'B']`: an enumeration as the object GraphQL and checks use. */
export function enumOf<const V extends string>(values: readonly V[]): { readonly [K in V]: K } {
  return Object.fromEntries(values.map((value) => [value, value])) as { readonly [K in V]: K };
}

/** `enumOf(values)`, registered as the GraphQL enum `name` (values in the order given). */
export function graphqlEnum<const V extends string>(
  name: string,
  values: readonly V[],
  description?: string,
): { readonly [K in V]: K } {
  const enumeration = enumOf(values);
  registerEnumType(enumeration, { name, description });
  return enumeration;
}
