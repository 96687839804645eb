import {
  LENS_INTERFACE_HEADER,
  PROXY_SECRET_HEADER,
  REQUEST_ID_HEADER,
  type LensInterface,
} from '@campaign/platform';

export interface GraphQLErrorShape {
  message: string;
  extensions?: Record<string, unknown>;
}

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLErrorShape[];
}

export class GatewayUnreachableError extends Error {}

/**
 * Sends one GraphQL operation to the gateway with the caller's credential, request id and
 * address (vouched for with the proxy secret: the gateway believes no one else's).
 */
export class GatewayClient {
  constructor(
    private readonly url: string,
    private readonly proxySecret: string,
  ) {}

  async execute<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown>,
    headers: {
      authorization?: string;
      requestId: string;
      clientIp: string;
      /**
       * Set by the MCP front only (lens then takes tool-protocol tokens). The headers are built
       * here, never copied from the client, so no REST caller can send its own.
       */
      lensInterface?: LensInterface;
    },
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
          [PROXY_SECRET_HEADER]: this.proxySecret,
          ...(headers.authorization ? { authorization: headers.authorization } : {}),
          ...(headers.lensInterface ? { [LENS_INTERFACE_HEADER]: headers.lensInterface } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      throw new GatewayUnreachableError(error instanceof Error ? error.message : String(error));
    }
    return (await response.json()) as GraphQLResponse<T>;
  }
}
