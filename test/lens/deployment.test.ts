import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@campaign/stack';
import type { ServiceProcess } from '@campaign/stack';
import { cli } from '../support/cli.js';
import { startBeside } from '../support/beside.js';
import { AS_GATEWAY } from '../support/clients.js';
import { ENVELOPE_FIELDS } from './lens-client.js';

/**
 * Deployment settings of the engine, on a second lens subgraph process started with them (the
 * shared stack keeps every operation on): LENS_DISABLED_OPERATIONS and LENS_PRICES.
 */
describe('per-deployment settings of the lens engine', () => {
  let lens: ServiceProcess;
  let url: string;
  let key: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    [lens, key] = await Promise.all([
      startBeside('lens', 'lens subgraph (deployment settings)', port, {
        LENS_DISABLED_OPERATIONS: 'accounts.guides',
        LENS_PRICES: JSON.stringify({ 'accounts.profile': { base: 3 } }),
        // Long enough for any look-up to finish within the call: its answer is terminal.
        LENS_SYNC_BUDGET_MS: '30000',
      }),
      cli('lens:create-key', '--credits', '100'),
    ]);
  });

  afterAll(async () => {
    await lens?.stop();
  });

  const call = async (query: string, variables: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        ...AS_GATEWAY,
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: Record<string, Record<string, unknown>>;
      errors?: { extensions?: Record<string, unknown> }[];
    };
  };

  it('403 OPERATION_DISABLED for an operation switched off with LENS_DISABLED_OPERATIONS', async () => {
    const result = await call(
      `mutation($key: String!) { accountsGuides(idempotencyKey: $key, input: { accountRef: { handle: "minji.daily" } }) { operationId } }`,
      { key: 'disabled-1' },
    );
    expect(result.errors?.[0]?.extensions).toMatchObject({
      code: 'OPERATION_DISABLED',
      httpStatus: 403,
      retryable: false,
    });
  });

  it('LENS_PRICES overrides a price: accounts.profile reserves and charges 3', async () => {
    const result = await call(
      `mutation($key: String!) { accountsProfile(idempotencyKey: $key, input: { accountRef: { handle: "minji.daily" } }) { ${ENVELOPE_FIELDS} } }`,
      { key: 'priced-1' },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!['accountsProfile']).toMatchObject({
      status: 'SUCCEEDED',
      credits: { reserved: 3, charged: 3, refunded: 0 },
    });
  });
});
