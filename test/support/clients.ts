import { inject } from 'vitest';
import { DEVELOPMENT_SECRETS } from '@campaign/platform';
import { SUBGRAPH_SECRET_HEADER } from '@campaign/platform';

export const stack = () => inject('stack');

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
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : null) as T,
  };
}

export interface GraphQLResult<T> {
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** A GraphQL operation on the gateway, as a console would send it. */
export async function graphql<T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphQLResult<T>> {
  const response = await fetch(stack().gateway, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResult<T>;
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
