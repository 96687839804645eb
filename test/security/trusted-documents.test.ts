import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationDocument } from '@campaign/rest-adapter';
import { lensOperations } from '@campaign/schema';
import { freePort, startService, type ServiceProcess } from '@campaign/stack';
import { cli } from '../support/cli.js';
import { codeOf, graphqlAt, stack } from '../support/clients.js';
import { adminToken } from '../settlement/support.js';

/**
 * Issue 27: `GATEWAY_TRUSTED_DOCUMENTS=require` on a standalone gateway of either engine (beside
 * the shared stack's, on its subgraphs). A console's token (a JWT) runs any document; an API key
 * runs only the documents the REST adapter runs (schema/trusted-documents.json).
 */
const ENGINES = ['apollo', 'hive'] as const;
const PROFILE = operationDocument(lensOperations['accounts.profile']);
/** The same look-up in words the manifest does not hold. */
const OWN_PROFILE = `mutation($idempotencyKey: String!, $input: AccountsProfileInput!) {
  accountsProfile(idempotencyKey: $idempotencyKey, input: $input) { status }
}`;

describe.each(ENGINES)('GATEWAY_TRUSTED_DOCUMENTS=require on the %s engine', (engine) => {
  let gateway: ServiceProcess;
  let url: string;
  let apiKey: string;
  let admin: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    [gateway, apiKey, admin] = await Promise.all([
      startService(
        {
          name: `gateway (${engine}, trusted documents)`,
          main: 'gateway/src/main.ts',
          env: {
            GATEWAY_PORT: String(port),
            GATEWAY_ENGINE: engine,
            GATEWAY_TRUSTED_DOCUMENTS: 'require',
            LENS_SUBGRAPH_URL: stack().lens,
            SETTLEMENT_SUBGRAPH_URL: stack().settlement,
            // Not 'fatal': the Hive runtime reads LOG_LEVEL itself and knows no such level.
            LOG_LEVEL: 'error',
          },
        },
        'ignore',
      ),
      cli('lens:create-key', '--credits', '100'),
      adminToken(),
    ]);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const variables = () => ({
    idempotencyKey: randomUUID(),
    input: { accountRef: { handle: 'trusted.documents' } },
  });

  it('an API key with a document of its own: 403 PERMISSION_DENIED, nothing run', async () => {
    const result = await graphqlAt(url, OWN_PROFILE, variables(), apiKey);
    expect(codeOf(result), JSON.stringify(result)).toBe('PERMISSION_DENIED');
    expect(result.data ?? null).toBeNull();
  });

  it('an API key with a trusted document: it runs', async () => {
    const result = await graphqlAt<{ result: { status: string } }>(
      url,
      PROFILE,
      variables(),
      apiKey,
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data?.result.status).toBe('SUCCEEDED');
  });

  it('a console’s token: any document', async () => {
    const result = await graphqlAt<{ settlements: { total: number } }>(
      url,
      '{ settlements(limit: 1) { total } }',
      {},
      admin,
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data?.settlements.total).toBeGreaterThanOrEqual(0);
  });
});
