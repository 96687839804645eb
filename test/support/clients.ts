import { randomUUID } from 'node:crypto';
import type { StackUrls } from '@campaign/stack';
import { DEVELOPMENT_SECRETS } from '@campaign/platform';
import { SUBGRAPH_SECRET_HEADER } from '@campaign/platform';
import { assertDocumented } from './settlement-openapi.js';

let shared: StackUrls | undefined;
/** Called by the stack tier's setup file (`stack-ready.ts`) once the shared stack is up. */
export const useSharedStack = (urls: StackUrls) => void (shared = urls);
export const stack = (): StackUrls => {
  if (!shared) throw new Error('the shared stack is known only in the stack tier');
  return shared;
};

/**
 * The upstream simulator's `slow_` answers still waiting go out now (`POST /_sim/answer-now`):
 * for a test that has seen the 202 the delay is for and now waits for the end. Answers how many.
 */
export async function answerSlowNow(): Promise<number> {
  const response = await fetch(`${stack().upstream}/_sim/answer-now`, { method: 'POST' });
  return ((await response.json()) as { answered: number }).answered;
}

/** What the gateway sends a subgraph: tests that call a subgraph process directly send it too. */
export const AS_GATEWAY = { [SUBGRAPH_SECRET_HEADER]: DEVELOPMENT_SECRETS.subgraph };

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A REST call to the adapter, as a client would make it. */
export async function rest<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const response = await fetch(`${stack().rest}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const text = await response.text();
  // A workbook (quotation generate) is a file, not JSON: its body is read as absent here.
  const json = /json/.test(response.headers.get('content-type') ?? '');
  const body = (text && json ? JSON.parse(text) : null) as T;
  // Every answer of a documented settlement path is checked against the published document.
  assertDocumented(method, path, response.status, response.headers.get('content-type'), body);
  return { status: response.status, headers: response.headers, body };
}

export interface GraphQLResult<T> {
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** A billed lens profile read of `handle` with a fresh idempotency key, on the adapter at `restUrl`. */
export const lensProfile = (restUrl: string, key: string, handle: string) =>
  fetch(`${restUrl}/api/lens/v1/accounts/profile`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ accountRef: { handle } }),
  });

/** A GraphQL operation on the gateway, as a console would send it. */
export const graphql = <T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphQLResult<T>> => graphqlAt<T>(stack().gateway, query, variables, token);

/** A GraphQL operation on the gateway at `gateway` (one a test started, a second engine). */
export async function graphqlAt<T = Record<string, unknown>>(
  gateway: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphQLResult<T>> {
  const response = await fetch(gateway, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResult<T>;
}

/** The first GraphQL error's code, or undefined. */
export const errorCode = (errors: { extensions?: Record<string, unknown> }[] | undefined) =>
  errors?.[0]?.extensions?.['code'] as string | undefined;

/** The code of a GraphQL answer's first error, or undefined. */
export const codeOf = (result: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  errorCode(result.errors);

/**
 * The code a one-id query or mutation (`field(id: $id) { id }`) on the gateway answers with:
 * undefined when it succeeds.
 */
export async function codeById(
  kind: 'query' | 'mutation',
  field: string,
  id: string | number,
  token: string,
): Promise<string | undefined> {
  return codeOf(await graphql(`${kind} ($id: ID!) { ${field}(id: $id) { id } }`, { id }, token));
}

/** GraphQL that must succeed: fails the test with the errors otherwise. */
export async function graphqlOk<T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const result = await graphql<T>(query, variables, token);
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data as T;
}
