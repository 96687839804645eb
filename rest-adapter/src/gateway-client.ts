import type { EmbeddedGateway } from '@campaign/gateway/embedded';
import type { TrustedDocumentManifest } from '@campaign/schema';
import {
  IDEMPOTENCY_KEY_HEADER,
  LENS_INTERFACE_HEADER,
  REQUEST_ID_HEADER,
  type LensInterface,
} from '@campaign/platform';

export interface GraphQLErrorShape {
  message: string;
  extensions?: Record<string, unknown>;
}

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: readonly GraphQLErrorShape[];
  /** Not part of the body: a subgraph said the answer is a stored one (Idempotent-Replayed). */
  replayed?: boolean;
}

/** Who the operation runs for: what the subgraphs are told of the caller. */
export interface CallerHeaders {
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
}

/** A document outside schema/trusted-documents.json: a programming error (run `npm run compose`). */
export class UntrustedDocumentError extends Error {
  constructor(document: string) {
    super(`not a trusted document (run npm run compose): ${document.slice(0, 120)}`);
  }
}

/**
 * Runs one GraphQL operation for a REST row, a tool call or the consent page on the gateway
 * engine in this process (issue 27): the adapter is the gateway's caller in the same process, so
 * the client address and the lens interface it states are the ones the subgraphs receive (over
 * HTTP the proxy secret vouched for them). Only the trusted documents run.
 */
export class GatewayClient {
  private readonly trusted: ReadonlySet<string>;

  constructor(
    private readonly gateway: EmbeddedGateway,
    manifest: TrustedDocumentManifest,
  ) {
    this.trusted = new Set(manifest.operations.map((operation) => operation.body));
  }

  /** Stops the engine and its pools to the subgraphs (the adapter's onClose). */
  close(): Promise<void> {
    return this.gateway.close();
  }

  execute<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown>,
    caller: CallerHeaders,
  ): Promise<GraphQLResponse<T>> {
    if (!this.trusted.has(query)) return Promise.reject(new UntrustedDocumentError(query));
    return this.gateway.execute<T>({
      query,
      variables,
      headers: {
        authorization: caller.authorization,
        [REQUEST_ID_HEADER]: caller.requestId,
        'x-forwarded-for': caller.clientIp,
        [LENS_INTERFACE_HEADER]: caller.lensInterface,
        [IDEMPOTENCY_KEY_HEADER]: caller.idempotencyKey,
      },
    });
  }
}
