import type { GraphQLError } from 'graphql';

/**
 * The same error with `extensions` laid over its own: how both engines turn an error of the
 * document (parse, validation, resolution) into the request error they answer with its code.
 * Built by the error's own class: the Apollo engine's graphql may be another realm than ours.
 */
export const withExtensions = (error: GraphQLError, extensions: Record<string, unknown>) =>
  new (error.constructor as typeof GraphQLError)(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, ...extensions },
  });
