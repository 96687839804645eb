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

/** A GraphQLError of either realm (the idempotency refusal is built by an ES import). */
export const isGraphQLError = (raw: unknown): raw is GraphQLError =>
  raw instanceof Error && 'extensions' in raw && typeof (raw as GraphQLError).toJSON === 'function';

/** Apollo Server's `extensions.http` of the raw errors (normalizeAndFormatErrors), merged. */
export function httpOf(errors: readonly unknown[]): {
  status?: number;
  headers?: Map<string, string>;
} {
  const head: { status?: number; headers?: Map<string, string> } = {};
  for (const raw of errors) {
    const http = isGraphQLError(raw) ? raw.extensions['http'] : undefined;
    if (!http || typeof http !== 'object') continue;
    const { status, headers } = http as { status?: unknown; headers?: unknown };
    if (typeof status === 'number') head.status = status;
    if (headers instanceof Map)
      for (const [name, value] of headers as Map<string, string>)
        (head.headers ??= new Map()).set(name, value);
  }
  return head;
}
