import { createHash } from 'node:crypto';
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
import type { GatewayContext } from './apollo-engine.js';
import { apolloFederation } from './apollo-engine.js';
import type { GatewayConfig } from './config.js';
import { refusalOf } from './idempotency.js';
import { withExtensions } from './request-errors.js';
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

/** A GraphQLError of either realm (the idempotency refusal is built by an ES import). */
const isGraphQLError = (raw: unknown): raw is GraphQLError =>
  raw instanceof Error && 'extensions' in raw && typeof (raw as GraphQLError).toJSON === 'function';
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
    queryHash: createHash('sha256').update(source).digest('hex'),
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
  replayed: boolean;
}

/**
 * The Apollo engine for the REST adapter and its MCP front (issue 27): only the trusted documents
 * (schema/trusted-documents.json) run, so each is parsed, validated against the gateway's limits
 * and resolved once at start, and a request goes straight to the gateway's executor (the query
 * plan, cached by the gateway after its first use, its fetches and the result shaping) without
 * Apollo Server's per-request pipeline. What that pipeline gave is kept here: the Idempotency-Key
 * 400, variables refused as BAD_USER_INPUT, unexpected errors masked (maskError, the same
 * formatError) and logged under the request id, suggestions hidden without introspection, the
 * operation's span attributes and duration metric; the gateway opens its own plan and fetch spans.
 */
export async function startTrustedApolloEngine(
  config: GatewayConfig,
  logger: Logger,
  documents: readonly string[],
) {
  const { gateway, closePools } = await apolloFederation(config, logger);
  const { schema } = await gateway.load();
  const armor = armorFor(graphqlLimits('GATEWAY', config), config.GATEWAY_INTROSPECTION);
  const rules = [
    ...specifiedRules,
    ...armor.validationRules,
    ...(config.GATEWAY_INTROSPECTION ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  const prepared = new Map(documents.map((d) => [d, prepare(d, schema, config, rules)]));
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

  async function execute(
    source: string,
    variables: Record<string, unknown>,
    headers: ForwardedHeaders,
  ): Promise<TrustedAnswer> {
    const started = performance.now();
    const known = prepared.get(source);
    if (!known) throw new Error(`not a trusted document: ${source.slice(0, 120)}`);
    if ('errors' in known) return { errors: format(known.errors, headers), replayed: false };
    const { document, operation, queryHash } = known;
    const name = operation.name?.value ?? null;
    observe?.resolved(name, operation.operation);
    const refusal = refusalOf(headers[IDEMPOTENCY_KEY_HEADER], document);
    if (refusal) return { errors: format([refusal], headers), replayed: false };
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
      result = {
        errors: [
          isGraphQLError(error)
            ? error
            : new GraphQLError(String(error), { originalError: error as Error }),
        ],
      };
    }
    observe?.done(name, operation.operation, started);
    return {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors?.length ? { errors: format(result.errors, headers) } : {}),
      replayed: context.replayed === true,
    };
  }

  return {
    execute,
    close: async () => {
      await gateway.stop();
      await closePools();
    },
  };
}
