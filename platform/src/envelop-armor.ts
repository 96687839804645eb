import { EnvelopArmor } from '@escape.tech/graphql-armor';
import type { GraphQLError, ValidationContext } from 'graphql';
import { armorOptions } from './graphql-armor.js';
import type { GraphQLLimits } from './graphql-limits.js';

/** A refused query is reported as a validation error of the request, not thrown from within. */
const reported = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => context?.reportError(error),
  ],
};

/**
 * The same depth, alias, token, directive and cost limits as `mountGraphQL`, as envelop plugins
 * for a GraphQL Yoga based server (the Hive gateway, issue 16). Under envelop a rule that throws
 * fails the request as an unexpected error, so the validation-time limits report instead; the
 * token limit runs while parsing (no validation context) and throws a parse error.
 */
export function envelopArmorPlugins(
  limits: GraphQLLimits,
  introspection: boolean,
): ReturnType<EnvelopArmor['protect']>['plugins'] {
  const options = armorOptions(limits, introspection);
  return new EnvelopArmor({
    ...options,
    maxDepth: { ...options.maxDepth, ...reported },
    maxAliases: { ...options.maxAliases, ...reported },
    maxDirectives: { ...options.maxDirectives, ...reported },
    costLimit: { ...options.costLimit, ...reported },
  }).protect().plugins;
}
