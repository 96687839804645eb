import { REQUEST_ID_HEADER } from '@campaign/platform';

export interface GraphQLErrorShape {
  message: string;
  extensions?: Record<string, unknown>;
}

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLErrorShape[];
}

export class GatewayUnreachableError extends Error {}

/** Sends one GraphQL operation to the gateway with the caller's credential and request id. */
export class GatewayClient {
  constructor(private readonly url: string) {}

  async execute<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown>,
    headers: { authorization?: string; requestId: string; clientIp: string },
  ): Promise<GraphQLResponse<T>> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'apollo-require-preflight': 'true',
          [REQUEST_ID_HEADER]: headers.requestId,
          'x-forwarded-for': headers.clientIp,
          ...(headers.authorization ? { authorization: headers.authorization } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      throw new GatewayUnreachableError(error instanceof Error ? error.message : String(error));
    }
    return (await response.json()) as GraphQLResponse<T>;
  }
}
