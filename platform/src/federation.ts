import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchema, createResolversMap, type BuildSchemaOptions } from 'type-graphql';

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
  return { schema, sdl };
}
