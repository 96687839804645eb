import { createHash } from 'node:crypto';
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import type { GraphQLFormattedError, OperationDefinitionNode } from 'graphql';
import { errorBody, errorCatalogue, isErrorCode, type ErrorCode } from '@campaign/schema';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  keyedOperationProblem,
  REQUEST_ERROR_CODES,
} from '@campaign/platform';
import type { SettlementContext } from '../context.js';
import {
  claimKey,
  heldKey,
  releaseKey,
  storeAnswer,
  type KeyOwner,
} from './idempotency-key.repository.js';

/**
 * Idempotency-Key for every settlement mutation (issue 23 item 5, DESIGN.md section 7), in one
 * place for both interfaces: the REST adapter and the gateway forward the header, this plugin
 * keeps the keys. A keyed mutation claims its key (scoped to the principal's role and subject)
 * before it runs; the answer is stored under it; the same key with the same request answers the
 * stored answer with `Idempotent-Replayed: true` and runs nothing; with another request, 409
 * IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_PROGRESS (retryable,
 * as Stripe answers). An answer worth retrying (a retryable code, an unexpected error) is not
 * kept: the key is released so the retry runs.
 */

/** The request as the key remembers it: the document the gateway sent, its operation, variables. */
const fingerprintOf = (
  query: string | undefined,
  operationName: string | undefined,
  variables: unknown,
) =>
  createHash('sha256')
    .update(JSON.stringify([query ?? '', operationName ?? null, variables ?? {}]))
    .digest('hex');

/**
 * Apollo Server's header map, loaded when this plugin first answers: the plugin runs only in
 * Apollo Server's pipeline, which the subgraph loads on first use (issue 27, idle RSS), so a
 * static import would load it at start.
 */
const headerMap = async (entries: [string, string][] = []) =>
  new (await import('@apollo/server')).HeaderMap(entries);

const refusal = async (code: ErrorCode, message: string): Promise<GraphQLResponse> => ({
  http: { status: undefined, headers: await headerMap() },
  body: {
    kind: 'single',
    singleResult: { errors: [{ message, extensions: { ...errorBody(code, message) } }] },
  },
});

/** Whether an error's answer would be different on a retry: the catalogue's word, or unknown. */
function worthRetrying(error: GraphQLFormattedError): boolean {
  const code = error.extensions?.['code'];
  if (isErrorCode(code)) return errorCatalogue[code].retryable;
  return !(typeof code === 'string' && REQUEST_ERROR_CODES.has(code));
}

/**
 * The operations this plugin acts on: a mutation sent with an Idempotency-Key. Apollo Server's
 * full pipeline answers them; the subgraph's lean path the rest (issue 27, graphql-documents.ts).
 */
export function isKeyedMutation(
  operation: Pick<OperationDefinitionNode, 'operation'>,
  key: string | string[] | null | undefined,
): key is string | string[] {
  return key !== undefined && key !== null && operation.operation === 'mutation';
}

export function idempotencyPlugin(): ApolloServerPlugin<SettlementContext> {
  return {
    async requestDidStart() {
      let held: { owner: KeyOwner; fingerprint: string } | undefined;
      return {
        async responseForOperation({ request, operation, document, contextValue }) {
          const key = request.http?.headers.get(IDEMPOTENCY_KEY_HEADER);
          if (!isKeyedMutation(operation, key)) return null;
          const problem = keyedOperationProblem(key, document, request.operationName);
          if (problem) return refusal('INVALID_REQUEST', problem);
          // No principal, no scope for the key: the mutation's own check answers UNAUTHENTICATED.
          const principal = await contextValue.principal().catch(() => null);
          if (!principal) return null;
          const owner = { role: principal.role, subject: principal.subject, key };
          const fingerprint = fingerprintOf(
            request.query,
            request.operationName,
            request.variables,
          );
          if (await claimKey(contextValue.em, owner, fingerprint)) {
            held = { owner, fingerprint };
            return null;
          }
          const existing = await heldKey(contextValue.em, owner);
          if (existing && existing.fingerprint !== fingerprint)
            return refusal(
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was already used with another request; use a new key.',
            );
          if (!existing?.response)
            return refusal(
              'IDEMPOTENCY_KEY_IN_PROGRESS',
              'A request with this Idempotency-Key is still running; retry shortly for its answer.',
            );
          return {
            http: {
              status: undefined,
              headers: await headerMap([[IDEMPOTENT_REPLAYED_HEADER, 'true']]),
            },
            body: { kind: 'single', singleResult: existing.response },
          };
        },
        async willSendResponse({ response, contextValue }) {
          if (!held) return;
          const { owner, fingerprint } = held;
          held = undefined;
          const result = response.body.kind === 'single' ? response.body.singleResult : null;
          if (!result || (result.errors ?? []).some(worthRetrying))
            await releaseKey(contextValue.em, owner, fingerprint);
          else await storeAnswer(contextValue.em, owner, fingerprint, result);
        },
      };
    },
  };
}
