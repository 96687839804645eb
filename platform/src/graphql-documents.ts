import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type {
  DocumentNode,
  GraphQLError,
  GraphQLFormattedError,
  GraphQLSchema,
  OperationDefinitionNode,
  ValidationRule,
} from 'graphql';
import { isShownAsIs, maskError } from './error-masking.js';
import { graphqlOperationObserver, type OperationRecording } from './graphql-metrics.js';
import {
  APPLICATION_JSON,
  GRAPHQL_RESPONSE_JSON,
  tokenLimitAsValidation,
} from './graphql-over-http.js';
import { REQUEST_ID_HEADER } from './http.js';

/**
 * graphql as @apollo/subgraph (CommonJS) loads it: the subgraph schema is checked with
 * `instanceof` by graphql's validate and execute. Under Node an ES import of graphql is that same
 * CommonJS build; under vitest it is the ES build, another realm (as in the gateway's trusted
 * documents, gateway/src/apollo-trusted.ts).
 */
const {
  execute,
  getOperationAST,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
} = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/**
 * How many document texts a subgraph keeps prepared. The gateway sends a fixed set (its query
 * plans' fetches, about a hundred); a console's own documents fill the rest, and once it is full
 * a new text goes through Apollo Server's pipeline (whose document cache is bounded too), not
 * parsed here as well.
 */
const MAX_DOCUMENTS = 1000;

/** What the Hive engine's subgraph executor (@graphql-tools/executor-http) sends as Accept. */
export const HIVE_SUBGRAPH_ACCEPT =
  'application/graphql-response+json, application/json, multipart/mixed';

/**
 * The content type Apollo Server's negotiation gives each Accept the gateways send (the Apollo
 * engine's `application/json`, the Hive engine's list, none); another Accept takes the full
 * pipeline. Byte-compared with Apollo Server's answers in graphql-documents.test.ts.
 */
const CONTENT_TYPES = new Map<string | undefined, string>([
  [undefined, `${APPLICATION_JSON}; charset=utf-8`],
  [APPLICATION_JSON, `${APPLICATION_JSON}; charset=utf-8`],
  [HIVE_SUBGRAPH_ACCEPT, `${GRAPHQL_RESPONSE_JSON}; charset=utf-8`],
]);

/** armor's blockFieldSuggestion (its Apollo plugin's words): "Did you mean …?" hides the schema. */
export const hideSuggestions = (message: string) =>
  message.replace(/Did you mean ".+"/g, '[Suggestion hidden]');

export interface SubgraphDocumentsOptions<C> {
  schema: GraphQLSchema;
  /** The same limits as Apollo Server's validation: armor's rules (graphql-server.ts armorFor). */
  validationRules: readonly ValidationRule[];
  maxTokens: number;
  introspection: boolean;
  log: Pick<FastifyBaseLogger, 'error'>;
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<C>;
  /** Operations the full pipeline must answer (a plugin of the service's acts on them). */
  fullPipeline?: (operation: OperationDefinitionNode, request: FastifyRequest) => boolean;
  /** What is recorded of operations; by default what the process has on (graphql-metrics.ts). */
  recording?: OperationRecording;
  /** How many texts are kept prepared (MAX_DOCUMENTS unless a test says otherwise). */
  maxDocuments?: number;
}

/** A text parsed and validated once; `unnamed`: its operation when the request names none. */
interface Prepared {
  document: DocumentNode;
  unnamed: OperationDefinitionNode | null;
}

/** What errors set on the answer (Apollo's `extensions.http`), and the id their log lines carry. */
interface Head {
  status?: number;
  headers: Map<string, string>;
  requestId: string | string[] | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Apollo Server's test for an error's `extensions.http` (its isPartialHTTPGraphQLHead). */
function isHttpHead(value: unknown): value is { status?: number; headers?: Map<string, string> } {
  if (!value || typeof value !== 'object') return false;
  const head = value as Record<string, unknown>;
  return (
    (!('status' in head) || typeof head['status'] === 'number') &&
    (!('headers' in head) || head['headers'] instanceof Map)
  );
}

/**
 * A subgraph's lean path (issue 27): the gateway's fetches are a fixed set of document texts, so
 * each text is parsed and validated once (graphql-js, Apollo Server's limits and rules) and a
 * request runs graphql `execute` with the service's own context. What Apollo Server's pipeline
 * gives a subgraph answer is kept here and compared byte for byte in graphql-documents.test.ts:
 * error masking and the catalogue's extensions (the same formatError), unexpected errors logged
 * under the request id, suggestions hidden without introspection, `no-store`, the operation's
 * span attributes and duration metric, Apollo's content type and status. The secret check, the
 * request id and the HTTP metrics are the app's hooks, on both paths. Anything else (a document
 * that does not parse or validate, variables that do not coerce, an Accept or body shape other
 * than the gateway's, GET) gets `undefined`: Apollo Server answers it, as before.
 */
export function subgraphDocuments<C>(options: SubgraphDocumentsOptions<C>) {
  const rules = [
    ...specifiedRules,
    ...options.validationRules,
    ...(options.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  // Each text's document and its operation when no name is sent (what the gateway sends), found
  // once with the document rather than per request (issue 27).
  const documents = new Map<string, Prepared | null>();
  const observe = graphqlOperationObserver(options.recording);

  /** The text's prepared document, or null when Apollo Server answers it (its request errors). */
  function prepared(query: string): Prepared | null {
    const known = documents.get(query);
    if (known !== undefined) return known;
    // Full: Apollo Server (and its own document cache) takes every text not kept here.
    if (documents.size >= (options.maxDocuments ?? MAX_DOCUMENTS)) return null;
    let document: Prepared | null = null;
    try {
      const parsed = parse(query, { maxTokens: options.maxTokens });
      document = validate(options.schema, parsed, rules).length
        ? null
        : { document: parsed, unnamed: getOperationAST(parsed) ?? null };
    } catch {
      document = null;
    }
    documents.set(query, document);
    return document;
  }

  /** graphql's getOperationAST(document, name), the nameless answer kept from preparation. */
  const operationOf = ({ document, unnamed }: Prepared, name: string | undefined) =>
    name === undefined || (unnamed && unnamed.name?.value === name)
      ? unnamed
      : getOperationAST(document, name);

  /** Apollo Server's error formatting with the platform's formatError; an `http` part applies. */
  function format(errors: readonly GraphQLError[], head: Head) {
    return errors.map((error): GraphQLFormattedError => {
      if (!options.introspection) error.message = hideSuggestions(error.message);
      const code: unknown = error.extensions['code'];
      if (!isShownAsIs(code)) {
        const err = error.originalError ?? error;
        options.log.error(
          { err, requestId: head.requestId, path: error.path },
          'unexpected graphql error',
        );
      }
      try {
        const { http, ...extensions } = error.extensions as Record<string, unknown>;
        if (isHttpHead(http)) {
          if (http.status) head.status = http.status;
          for (const [name, value] of http.headers ?? []) head.headers.set(name, value);
        } else if (http !== undefined) extensions['http'] = http;
        return maskError(
          tokenLimitAsValidation({
            ...error.toJSON(),
            extensions: { ...extensions, code: code ?? 'INTERNAL_SERVER_ERROR' },
          }),
          error,
        );
      } catch {
        return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
    });
  }

  /** The answer's body, or undefined when Apollo Server is to answer the request. */
  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
    if (request.method !== 'POST') return undefined;
    const contentType = CONTENT_TYPES.get(request.headers.accept);
    const body = request.body;
    if (!contentType || !isRecord(body)) return undefined;
    const { query, variables, operationName, extensions } = body;
    if (typeof query !== 'string' || extensions !== undefined) return undefined;
    if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
    const name = operationName ?? undefined;
    if (name !== undefined && typeof name !== 'string') return undefined;
    const started = performance.now();
    const known = prepared(query);
    if (!known) return undefined;
    const { document } = known;
    const operation = operationOf(known, name);
    if (!operation || options.fullPipeline?.(operation, request)) return undefined;
    let contextValue: C;
    try {
      contextValue = await options.context(request, reply);
    } catch {
      // Apollo Server answers a context that fails (it builds the context again: no side effects).
      return undefined;
    }
    const operationLabel = operation.name?.value ?? null;
    observe?.resolved(operationLabel, operation.operation);
    const result = await execute({
      schema: options.schema,
      document,
      contextValue,
      variableValues: variables ?? undefined,
      operationName: name,
    });
    // No data: the variables did not coerce and no resolver ran. Apollo Server answers those
    // (BAD_USER_INPUT, 400 or 200 by what the client accepts).
    if (result.data === undefined) return undefined;
    // Only errors set a status or headers: an answer without them makes no head.
    const head: Head | undefined = result.errors?.length
      ? { headers: new Map(), requestId: request.headers[REQUEST_ID_HEADER] }
      : undefined;
    const errors = head && result.errors ? format(result.errors, head) : undefined;
    observe?.done(operationLabel, operation.operation, started);
    reply.code(head?.status ?? 200);
    if (head) for (const [header, value] of head.headers) reply.header(header, value);
    // What the subgraphs' noStorePlugin gives every answer of the full pipeline.
    reply.header('cache-control', 'no-store');
    reply.header('content-type', contentType);
    return `${JSON.stringify({ errors, data: result.data, extensions: result.extensions })}\n`;
  }

  return { answer };
}
