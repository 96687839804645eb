/**
 * The query limits as graphql-armor rules, apart from graphql-server.ts (issue 27): the REST
 * adapter's embedded gateway validates its trusted documents with these rules but never runs
 * Apollo Server, so it imports them from the platform's index without loading `@apollo/server`
 * (`@campaign/platform/graphql-server` is the Apollo Server part).
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLLimits } from './graphql-limits.js';

/**
 * Depth, alias, token, directive and cost limits: refused before any resolver or subgraph call.
 * One configuration for both servers that take it (Apollo here, envelop in the Hive gateway).
 */
export function armorOptions(limits: GraphQLLimits, introspection: boolean) {
  return {
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: limits.maxAliases },
    maxTokens: { n: limits.maxTokens },
    maxDirectives: { n: limits.maxDirectives },
    costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true },
    // "Did you mean …?" would describe a schema that introspection is meant to hide.
    blockFieldSuggestion: { enabled: !introspection },
  };
}

/**
 * On Apollo the token limit is graphql-js's own `parseOptions.maxTokens`, not armor's: armor's
 * Apollo plugin parses the document a second time in `parsingDidStart`, where any syntax error
 * (`{"query":"{"}`) is thrown as an unexpected error, an HTTP 500 (a known upstream problem).
 * graphql-js stops at the same count while parsing, a request error like any syntax error.
 * Exported for the REST adapter's trusted-document engine, which validates its documents once
 * at start with the same rules (gateway/src/apollo-trusted.ts).
 */
export function armorFor(limits: GraphQLLimits, introspection: boolean) {
  const options = armorOptions(limits, introspection);
  return new ApolloArmor({
    ...options,
    maxTokens: { ...options.maxTokens, enabled: false },
  }).protect();
}
