import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchema, createResolversMap, type BuildSchemaOptions } from 'type-graphql';
import { findUnsafeText, unsafeTextError } from './text-input.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides"])';

export interface FederatedSchema {
  schema: GraphQLSchema;
  /** The subgraph SDL as committed in `schema/<name>.graphql` and composed into the supergraph. */
  sdl: string;
}

/**
 * type-graphql builds the schema from decorators; @apollo/subgraph turns it into a Federation 2
 * subgraph with `_entities` and `_service`. Reference resolvers (`__resolveReference`) are merged
 * into type-graphql's resolver map per type.
 */
export async function buildFederatedSchema(
  options: Omit<BuildSchemaOptions, 'skipCheck'>,
  referenceResolvers: Record<string, { __resolveReference: (...args: never[]) => unknown }> = {},
): Promise<FederatedSchema> {
  const built = await buildSchema({ ...options, skipCheck: true });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(built)}\n`;
  const resolvers = createResolversMap(built) as Record<string, Record<string, unknown>>;
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...resolvers[typeName], ...reference };
  }
  const schema = buildSubgraphSchema([
    { typeDefs: gql(sdl), resolvers: resolvers as unknown as GraphQLResolverMap<unknown> },
  ]);
  guardTextArguments(schema);
  return { schema, sdl };
}

/**
 * Every field that takes arguments first checks them with the platform's text rule
 * (text-input.ts) and answers INVALID_REQUEST naming the argument path (`input.search`) before
 * its resolver, and so any authentication, rate counting or write, runs. Wrapping the built
 * schema rather than a type-graphql global middleware keeps fields without arguments (most of
 * them) as they are: a global middleware would make every field of every list row async.
 */
export function guardTextArguments(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args: Record<string, unknown>, context, info) => {
        const found = findUnsafeText(args);
        if (found) throw unsafeTextError(found);
        return resolve(source, args, context, info);
      };
    }
  }
}
