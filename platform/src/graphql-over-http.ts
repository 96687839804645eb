import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/**
 * GraphQL over HTTP (https://graphql.github.io/graphql-over-http/draft/) for request errors: a
 * document that does not parse or validate, variables that do not coerce, an operation name that
 * names none. The specification's watershed: a client that accepts
 * `application/graphql-response+json` gets HTTP 400 (with no `data`); a client that accepts only
 * `application/json` (or sends no Accept) gets 200 with the errors, as legacy GraphQL clients
 * expect. Never a 5xx. Both gateway engines follow it (Apollo through the plugin below, Yoga by
 * itself once the errors are marked as request errors, gateway/src/hive.ts).
 */

export const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';
export const APPLICATION_JSON = 'application/json';

/** The codes of GraphQL's own request errors (Apollo's names; the Hive engine gives the same). */
export const REQUEST_ERROR_CODES: ReadonlySet<string> = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** Whether an Accept header names `application/graphql-response+json` with a quality above 0. */
export function acceptsGraphQLResponse(accept: string | null | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== GRAPHQL_RESPONSE_JSON) return false;
    const quality = parameters.find((p) => p.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/** A result that is only request errors: no `data` entry, every error of GraphQL's own codes. */
export function isRequestErrorResult(result: {
  data?: unknown;
  errors?: readonly GraphQLFormattedError[];
}): boolean {
  if (result.data !== undefined || !result.errors?.length) return false;
  return result.errors.every((error) =>
    REQUEST_ERROR_CODES.has(String(error.extensions?.['code'])),
  );
}

/**
 * Apollo Server answers every request error with 400 whatever the client accepts: this plugin
 * keeps the 400 (as `application/graphql-response+json`) for a client that accepts that type and
 * answers 200 (as `application/json`) otherwise. Other errors (a missing query, a GET mutation,
 * CSRF) keep Apollo's status: those requests are not well-formed GraphQL-over-HTTP requests.
 */
export function graphqlOverHttpPlugin<C extends BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        // An operation name that names no operation of the document: Apollo Server leaves it to
        // the gateway, whose query planner throws (an INTERNAL_ERROR 500); it is a request error.
        async didResolveOperation({ operation, request }) {
          if (operation) return;
          throw new GraphQLError(
            request.operationName
              ? `Unknown operation named "${request.operationName}".`
              : 'Must provide operation name if query contains multiple operations.',
            { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } },
          );
        },
        async willSendResponse({ request, response }) {
          if (response.body.kind !== 'single' || response.http.status !== 400) return;
          if (!isRequestErrorResult(response.body.singleResult)) return;
          const graphqlResponse = acceptsGraphQLResponse(request.http?.headers.get('accept'));
          response.http.headers.set(
            'content-type',
            `${graphqlResponse ? GRAPHQL_RESPONSE_JSON : APPLICATION_JSON}; charset=utf-8`,
          );
          if (!graphqlResponse) response.http.status = 200;
        },
      };
    },
  };
}

/** graphql-js's own words when `parseOptions.maxTokens` stops a document ("more that" sic). */
const TOKEN_LIMIT = /^Syntax Error: Document contains more tha[nt] \d+ tokens/;

/**
 * The token limit is a limit like depth, aliases, directives and cost, not a syntax error of the
 * caller's: it keeps their code, GRAPHQL_VALIDATION_FAILED (the Hive engine names it the same).
 */
export function tokenLimitAsValidation(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (formatted.extensions?.['code'] !== 'GRAPHQL_PARSE_FAILED') return formatted;
  if (!TOKEN_LIMIT.test(formatted.message)) return formatted;
  return {
    ...formatted,
    extensions: { ...formatted.extensions, code: 'GRAPHQL_VALIDATION_FAILED' },
  };
}
