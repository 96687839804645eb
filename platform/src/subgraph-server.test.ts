import { describe, expect, it } from 'vitest';
import { subgraphEndpoint } from './subgraph-server.js';

describe('subgraphEndpoint', () => {
  const limits = {
    X_MAX_DEPTH: 1,
    X_MAX_ALIASES: 2,
    X_MAX_TOKENS: 3,
    X_MAX_DIRECTIVES: 4,
    X_MAX_COST: 5,
  };

  it('reads introspection, the limits and the secret under the prefix', () => {
    for (const introspection of [true, false]) {
      expect(
        subgraphEndpoint('X', { ...limits, X_INTROSPECTION: introspection, SUBGRAPH_SECRET: 's' }),
      ).toEqual({
        introspection,
        limits: { maxDepth: 1, maxAliases: 2, maxTokens: 3, maxDirectives: 4, maxCost: 5 },
        subgraphSecret: 's',
      });
    }
  });
});
