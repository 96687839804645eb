import { createRequire } from 'node:module';
import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { SUBGRAPH_LIMITS } from '@campaign/platform';
import { createGraphQLServer } from '@campaign/platform/graphql-server';
import type { LensContext } from './context.js';
import { LazyRequestParts } from './request-context.js';
import type { LensServices } from './services.js';

// The graphql module Apollo Server itself loads (Node's resolution, CommonJS): the test runner
// would otherwise hand this file graphql's ES module build, another realm for its schema checks.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** A context's lazy parts as the lens server makes them, counting the forks asked for. */
function counted() {
  const forks: object[] = [];
  const observations = {
    findMany: async (_em: EntityManager, ids: readonly string[]) => ids.map(() => null),
  } as unknown as LensServices['observations'];
  const parts = new LazyRequestParts(() => {
    const em = {} as EntityManager;
    forks.push(em);
    return em;
  }, observations);
  return { context: parts as unknown as LensContext, forks };
}

/** Two fields: one that uses no EntityManager, and one that loads through the dataloader. */
const schema = new graphql.GraphQLSchema({
  query: new graphql.GraphQLObjectType<unknown, LensContext>({
    name: 'Query',
    fields: {
      cheap: { type: graphql.GraphQLString, resolve: () => 'ok' },
      account: {
        type: graphql.GraphQLString,
        resolve: async (_source, _args, context) =>
          (await context.accountLoader.load('1')) === null ? 'unknown' : 'known',
      },
    },
  }),
});

describe('the lens request context', () => {
  // Apollo Server copies a context's own properties for each operation: own getters would fork
  // there, on every request, whether a resolver uses the EntityManager or not.
  it('makes no fork for an operation that does not use it, one for one that does', async () => {
    const server = await createGraphQLServer<LensContext>({
      schema,
      introspection: false,
      limits: SUBGRAPH_LIMITS,
      log: { error: () => undefined },
    });
    try {
      const { context, forks } = counted();
      const cheap = await server.executeOperation(
        { query: '{ cheap }' },
        { contextValue: context },
      );
      expect(cheap.body).toMatchObject({ singleResult: { data: { cheap: 'ok' } } });
      expect(forks).toHaveLength(0);
      const account = await server.executeOperation(
        { query: '{ account }' },
        { contextValue: context },
      );
      expect(account.body).toMatchObject({ singleResult: { data: { account: 'unknown' } } });
      expect(forks).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });

  it('forks once per request, shared by the loader and every copy of the context', async () => {
    const { context, forks } = counted();
    const copy = Object.assign(
      Object.create(Object.getPrototypeOf(context) as object) as LensContext,
      context,
    );
    expect(copy.em).toBe(context.em);
    expect(await copy.accountLoader.load('a')).toBeNull();
    expect(copy.accountLoader).toBe(context.accountLoader);
    expect(forks).toHaveLength(1);
  });
});
