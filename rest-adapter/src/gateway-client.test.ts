import { describe, expect, it } from 'vitest';
import type { EmbeddedGateway, GatewayCall } from '@campaign/gateway/embedded';
import { documentId, type TrustedDocumentManifest } from '@campaign/schema';
import { GatewayClient, UntrustedDocumentError } from './gateway-client.js';

/** Issue 27: the adapter runs only its trusted documents, with the headers it states itself. */
const TRUSTED = '{ availableOperations { name } }';
const manifest: TrustedDocumentManifest = {
  format: 'apollo-persisted-query-manifest',
  version: 1,
  operations: [{ id: documentId(TRUSTED), name: '', type: 'query', body: TRUSTED }],
};

function recording(): { gateway: EmbeddedGateway; calls: GatewayCall[] } {
  const calls: GatewayCall[] = [];
  const gateway: EmbeddedGateway = {
    engine: 'apollo',
    execute: async <T>(call: GatewayCall) => {
      calls.push(call);
      return { data: {} as T };
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
  return { gateway, calls };
}

describe('the adapter’s gateway client', () => {
  it('refuses a document outside the manifest without running anything', async () => {
    const { gateway, calls } = recording();
    const client = new GatewayClient(gateway, manifest);
    await expect(
      client.execute('{ settlements { total } }', {}, { requestId: 'r1', clientIp: '1.2.3.4' }),
    ).rejects.toBeInstanceOf(UntrustedDocumentError);
    expect(calls).toEqual([]);
  });

  it('runs a trusted document with the caller’s headers, and no interface unless MCP', async () => {
    const { gateway, calls } = recording();
    const client = new GatewayClient(gateway, manifest);
    await client.execute(
      TRUSTED,
      { a: 1 },
      {
        authorization: 'Bearer k',
        requestId: 'r2',
        clientIp: '10.0.0.9',
        lensInterface: 'mcp',
        idempotencyKey: 'key-1',
      },
    );
    await client.execute(TRUSTED, {}, { requestId: 'r3', clientIp: '10.0.0.8' });
    expect(calls.map((c) => c.headers)).toEqual([
      {
        authorization: 'Bearer k',
        'x-request-id': 'r2',
        'x-forwarded-for': '10.0.0.9',
        'x-lens-interface': 'mcp',
        'idempotency-key': 'key-1',
      },
      {
        authorization: undefined,
        'x-request-id': 'r3',
        'x-forwarded-for': '10.0.0.8',
        'x-lens-interface': undefined,
        'idempotency-key': undefined,
      },
    ]);
    expect(calls[0]!.variables).toEqual({ a: 1 });
  });
});
