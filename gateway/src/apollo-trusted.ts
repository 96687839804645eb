import { createRequire } from 'node:module';
import type { ApolloGateway } from '@apollo/gateway';
import type {
  DocumentNode,
  GraphQLError as GraphQLErrorType,
  GraphQLFormattedError,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';
import {
  armorFor,
  type createLogger,
  graphqlLimits,
  graphqlOperationObserver,
  hideSuggestions,
  IDEMPOTENCY_KEY_HEADER,
  isShownAsIs,
  maskError,
  REQUEST_ID_HEADER,
  tokenLimitAsValidation,
} from '@campaign/platform';
import { documentId } from '@campaign/schema';
import { apolloFederation, type GatewayContext } from './apollo-federation.js';
import type { GatewayConfig } from './config.js';
import { refusalOf } from './idempotency.js';
import { httpOf, isGraphQLError, withExtensions } from './request-errors.js';
import type { ForwardedHeaders } from './subgraphs.js';

type Logger = ReturnType<typeof createLogger>;

/**
 * graphql as @apollo/gateway (CommonJS) loads it: the schema the gateway builds is checked with
 * `instanceof` by graphql's validate. Under Node an ES import of graphql is that same CommonJS
 * build; under vitest it is the ES build, another realm whose validate refuses the schema.
 */
const {
  getOperationAST,
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
} = createRequire(import.meta.url)('graphql') as typeof import('graphql');
type GraphQLError = GraphQLErrorType;

type RequestContext = Parameters<ApolloGateway['executor']>[0];

/** One trusted document, prepared at start: parsed, validated, its operation and hash known. */
interface Prepared {
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  queryHash: string;
}

/** A document that failed at start answers its request errors, as Apollo Server would. */
type Preparation = Prepared | { errors: readonly GraphQLError[] };

const requestError = (error: GraphQLError, code: string) => withExtensions(error, { code });

/** Apollo Server's parse and validation with the gateway's limits, once per document. */
function prepare(
  source: string,
  schema: GraphQLSchema,
  config: GatewayConfig,
  rules: typeof specifiedRules,
): Preparation {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: graphqlLimits('GATEWAY', config).maxTokens });
  } catch (error) {
    if (!isGraphQLError(error)) throw error;
    return { errors: [requestError(error, 'GRAPHQL_PARSE_FAILED')] };
  }
  const invalid = validate(schema, document, rules);
  if (invalid.length)
    return { errors: invalid.map((e) => requestError(e, 'GRAPHQL_VALIDATION_FAILED')) };
  const operation = getOperationAST(document);
  if (!operation) {
    const message = 'Must provide operation name if query contains multiple operations.';
    return {
      errors: [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })],
    };
  }
  return {
    source,
    document,
    operation,
    queryHash: documentId(source),
  };
}

/**
 * A variable that does not coerce (the gateway checks them before planning, and answers the
 * errors alone): Apollo Server names it BAD_USER_INPUT.
 */
const isVariableError = (error: GraphQLError) =>
  error.nodes?.length === 1 && error.nodes[0]!.kind === Kind.VARIABLE_DEFINITION;

/** The gateway does not read the request cache; the executor's type names one. */
const NO_CACHE = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => true,
};

export interface TrustedAnswer {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
  extensions?: Record<string, unknown>;
  replayed: boolean;
  /**
   * The HTTP status and headers Apollo Server would answer with before GraphQL over HTTP's
   * watershed (graphqlOverHttpPlugin): an error's `extensions.http`, 400 for errors without data
   * (variables that do not coerce, request errors), 500 for an executor that threw, else 200.
   */
  status: number;
  headers?: ReadonlyMap<string, string>;
}

/**
 * Runs `documents` (trusted documents, each parsed, validated against the gateway's limits and
 * resolved once here) on a loaded Apollo gateway, straight through its executor (the query plan,
 * cached by the gateway after its first use, its fetches and the result shaping) without Apollo
 * Server's per-request pipeline. What that pipeline gave is kept here: the Idempotency-Key 400,
 * variables refused as BAD_USER_INPUT, unexpected errors masked (maskError, the same formatError)
 * and logged under the request id, suggestions hidden without introspection, the operation's span
 * attributes and duration metric, and the HTTP status Apollo Server would give; the gateway opens
 * its own plan and fetch spans. Used by the REST adapter's engine (below) and by the standalone
 * gateway for the requests that send a trusted document (trusted-http.ts, issue 27).
 */
export function trustedExecutor(
  gateway: ApolloGateway,
  schema: GraphQLSchema,
  config: GatewayConfig,
  logger: Logger,
  documents: readonly string[],
) {
  const armor = armorFor(graphqlLimits('GATEWAY', config), config.GATEWAY_INTROSPECTION);
  const rules = [
    ...specifiedRules,
    ...armor.validationRules,
    ...(config.GATEWAY_INTROSPECTION ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  // Each document is prepared on its first use and kept (issue 27): the standalone gateway is
  // sent few of the manifest's documents, and preparing all 54 at start cost it 3-9 MB of idle
  // RSS (parse and validation garbage V8 keeps); the hot path is the same from the second call.
  const trusted = new Set(documents);
  const prepared = new Map<string, Preparation>();
  const preparedOf = (source: string): Preparation | undefined => {
    let known = prepared.get(source);
    if (!known && trusted.has(source)) {
      known = prepare(source, schema, config, rules);
      prepared.set(source, known);
    }
    return known;
  };
  const observe = graphqlOperationObserver();

  const format = (errors: readonly unknown[], headers: ForwardedHeaders) =>
    errors.map((raw): GraphQLFormattedError => {
      const error = isGraphQLError(raw)
        ? raw
        : new GraphQLError(String(raw), {
            originalError: raw instanceof Error ? raw : undefined,
          });
      const code =
        error.extensions['code'] ?? (isVariableError(error) ? 'BAD_USER_INPUT' : undefined);
      if (!isShownAsIs(code)) {
        const err = error.originalError ?? error;
        logger.error(
          { err, requestId: headers[REQUEST_ID_HEADER], path: error.path },
          'unexpected graphql error',
        );
      }
      const { http: _http, ...extensions } = error.extensions;
      const formatted = error.toJSON();
      // armor's blockFieldSuggestion: "Did you mean …?" describes a schema that is hidden.
      const message = config.GATEWAY_INTROSPECTION
        ? formatted.message
        : hideSuggestions(formatted.message);
      return maskError(
        tokenLimitAsValidation({
          ...formatted,
          message,
          extensions: { ...extensions, code: code ?? 'INTERNAL_SERVER_ERROR' },
        }),
        error,
      );
    });

  /** An answer of errors alone, with the status Apollo Server gives them (`fallback` if none). */
  const failed = (
    errors: readonly unknown[],
    headers: ForwardedHeaders,
    fallback: number,
  ): TrustedAnswer => {
    const http = httpOf(errors);
    return {
      errors: format(errors, headers),
      replayed: false,
      status: http.status ?? fallback,
      ...(http.headers ? { headers: http.headers } : {}),
    };
  };

  async function execute(
    source: string,
    variables: Record<string, unknown>,
    headers: ForwardedHeaders,
  ): Promise<TrustedAnswer> {
    const started = performance.now();
    const known = preparedOf(source);
    if (!known) throw new Error(`not a trusted document: ${source.slice(0, 120)}`);
    // Apollo Server answers a document that does not parse or validate with 400.
    if ('errors' in known) return failed(known.errors, headers, 400);
    const { document, operation, queryHash } = known;
    const name = operation.name?.value ?? null;
    observe?.resolved(name, operation.operation);
    const refusal = refusalOf(headers[IDEMPOTENCY_KEY_HEADER], document);
    if (refusal) return failed([refusal], headers, 500);
    const context: GatewayContext = { headers };
    const request = {
      request: { query: source, variables },
      document,
      operation,
      operationName: name,
      source,
      queryHash,
      schema,
      schemaHash: 'unused' as RequestContext['schemaHash'],
      context,
      cache: NO_CACHE,
      logger,
      metrics: {},
      overallCachePolicy: undefined,
    } satisfies RequestContext;
    let result: Awaited<ReturnType<ApolloGateway['executor']>>;
    try {
      result = await gateway.executor(request);
    } catch (error) {
      observe?.done(name, operation.operation, started);
      return failed([isGraphQLError(error) ? error : toGraphQLError(error)], headers, 500);
    }
    observe?.done(name, operation.operation, started);
    const errors = result.errors ?? [];
    const http = httpOf(errors);
    return {
      ...(errors.length ? { errors: format(errors, headers) } : {}),
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.extensions ? { extensions: result.extensions } : {}),
      replayed: context.replayed === true,
      // Errors and no data: variables that do not coerce (status400ForVariableCoercionErrors).
      status: http.status ?? (errors.length && result.data === undefined ? 400 : 200),
      ...(http.headers ? { headers: http.headers } : {}),
    };
  }

  /** The trusted document of each persisted-query hash (the manifest's ids: sha256 of each). */
  const byHash = new Map(documents.map((d) => [documentId(d), d]));
  return {
    execute,
    sourceOf: (hash: string) => byHash.get(hash),
    /** A prepared document's operation name (null: anonymous); undefined for any other text. */
    operationOf(source: string): string | null | undefined {
      const known = preparedOf(source);
      return known && 'operation' in known ? (known.operation.name?.value ?? null) : undefined;
    },
  };
}

export type TrustedExecutor = ReturnType<typeof trustedExecutor>;

const toGraphQLError = (error: unknown) =>
  new GraphQLError(String(error), { originalError: error as Error });

/**
 * The Apollo engine for the REST adapter and its MCP front (issue 27): only the trusted documents
 * (schema/trusted-documents.json) run, on a gateway of its own, through `trustedExecutor`.
 */
export async function startTrustedApolloEngine(
  config: GatewayConfig,
  logger: Logger,
  documents: readonly string[],
) {
  const { gateway, closePools } = await apolloFederation(config, logger);
  const { schema } = await gateway.load();
  const { execute } = trustedExecutor(gateway, schema, config, logger, documents);
  return {
    execute,
    close: async () => {
      await gateway.stop();
      await closePools();
    },
  };
}
