import { z } from 'zod';

/**
 * The shape limits every GraphQL server of the platform enforces (gateway and subgraphs), each
 * configurable per service as `<PREFIX>_MAX_DEPTH`, `_MAX_ALIASES`, `_MAX_TOKENS`,
 * `_MAX_DIRECTIVES` and `_MAX_COST`. The subgraphs' defaults are looser than the gateway's: the
 * gateway's query plans add entity fetches, `__typename` and aliases to what a client sent.
 */
export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxCost: number;
}

export const GATEWAY_LIMITS: GraphQLLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxTokens: 3000,
  maxDirectives: 20,
  maxCost: 5000,
};

export const SUBGRAPH_LIMITS: GraphQLLimits = {
  maxDepth: 16,
  maxAliases: 100,
  maxTokens: 10000,
  maxDirectives: 100,
  maxCost: 20000,
};

const KEYS = {
  MAX_DEPTH: 'maxDepth',
  MAX_ALIASES: 'maxAliases',
  MAX_TOKENS: 'maxTokens',
  MAX_DIRECTIVES: 'maxDirectives',
  MAX_COST: 'maxCost',
} as const satisfies Record<string, keyof GraphQLLimits>;

export type LimitVar<P extends string> = `${P}_${keyof typeof KEYS}`;

/** The zod fields of one service's limits, to spread into its configuration schema. */
export function graphqlLimitVars<P extends string>(
  prefix: P,
  defaults: GraphQLLimits,
): Record<LimitVar<P>, z.ZodDefault<z.ZodCoercedNumber<unknown>>> {
  const fields: Record<string, z.ZodDefault<z.ZodCoercedNumber<unknown>>> = {};
  for (const [suffix, key] of Object.entries(KEYS))
    fields[`${prefix}_${suffix}`] = z.coerce
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(defaults[key]);
  return fields as Record<LimitVar<P>, z.ZodDefault<z.ZodCoercedNumber<unknown>>>;
}

/** The limits out of a parsed configuration. */
export function graphqlLimits<P extends string>(
  prefix: P,
  config: Record<LimitVar<P>, number>,
): GraphQLLimits {
  const limits = {} as GraphQLLimits;
  for (const [suffix, key] of Object.entries(KEYS))
    limits[key] = config[`${prefix}_${suffix}` as LimitVar<P>];
  return limits;
}
