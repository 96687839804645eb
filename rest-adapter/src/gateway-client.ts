import { Pool } from 'undici';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
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
  /** Not part of the body: the gateway said the answer is a stored one (Idempotent-Replayed). */
  replayed?: boolean;
}

export class GatewayUnreachableError extends Error {}

/** Keep-alive connections to the gateway: more than the concurrent requests one adapter serves. */
const CONNECTIONS = 64;

/**
 * Sends one GraphQL operation to the gateway with the caller's credential, request id and
 * address (vouched for with the proxy secret: the gateway believes no one else's).
 */
export class GatewayClient {
  /**
   * undici's keep-alive pool to the gateway: Node's fetch cost 57 % of the adapter's CPU under
   * load (issue 14); a pool built for proxying keeps connections open and parses far less.
   */
  private readonly pool: Pool;
  private readonly path: string;

  constructor(
    url: string,
    private readonly proxySecret: string,
  ) {
    const target = new URL(url);
    this.pool = new Pool(target.origin, { connections: CONNECTIONS });
    this.path = `${target.pathname}${target.search}`;
  }

  /** Closes the pool's connections (the adapter's onClose). */
  close(): Promise<void> {
    return this.pool.close();
  }

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
      /** The caller's Idempotency-Key, kept by the settlement subgraph (issue 23 item 5). */
      idempotencyKey?: string;
    },
  ): Promise<GraphQLResponse<T>> {
    let body: string;
    let replayed = false;
    try {
      const response = await this.pool.request({
        path: this.path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'apollo-require-preflight': 'true',
          [REQUEST_ID_HEADER]: headers.requestId,
          'x-forwarded-for': headers.clientIp,
          [PROXY_SECRET_HEADER]: this.proxySecret,
          ...(headers.authorization ? { authorization: headers.authorization } : {}),
          ...(headers.lensInterface ? { [LENS_INTERFACE_HEADER]: headers.lensInterface } : {}),
          ...(headers.idempotencyKey !== undefined
            ? { [IDEMPOTENCY_KEY_HEADER]: headers.idempotencyKey }
            : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      body = await response.body.text();
      replayed = response.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true';
    } catch (error) {
      throw new GatewayUnreachableError(error instanceof Error ? error.message : String(error));
    }
    const parsed = JSON.parse(body) as GraphQLResponse<T>;
    return replayed ? { ...parsed, replayed } : parsed;
  }
}
