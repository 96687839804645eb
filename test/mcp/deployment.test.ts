import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startService, type ServiceProcess } from '@campaign/stack';
import { cli } from '../support/cli.js';
import { stack } from '../support/clients.js';
import { callTool, HANDLE, newKey, useClients } from './mcp-client.js';

/**
 * The tool list follows the deployment: a second lens subgraph with accounts.guides switched off
 * and accounts.profile priced at 3, behind its own REST adapter (whose gateway engine runs in its
 * process, issue 27) (the shared stack
 * keeps every operation on at the default prices), on the shared databases.
 */
describe('per-deployment settings in the tool list (LENS_DISABLED_OPERATIONS, LENS_PRICES)', () => {
  const open = useClients();
  const services: ServiceProcess[] = [];
  let rest: string;
  let token: string;

  const start = (name: string, main: string, env: Record<string, string>) =>
    startService({ name, main, env: { LOG_LEVEL: 'warn', ...env } }, 'ignore').then((s) => {
      services.push(s);
      return s;
    });

  beforeAll(async () => {
    const [lensPort, restPort] = await Promise.all([freePort(), freePort()]);
    const made = await Promise.all([
      cli('lens:create-key', '--kind', 'mcp', '--credits', '100'),
      start('lens subgraph (deployment settings)', 'subgraphs/lens/src/main.ts', {
        LENS_PORT: String(lensPort),
        LENS_DATABASE_URL: stack().lensDatabase,
        LENS_UPSTREAM_URL: stack().upstream,
        LENS_DISABLED_OPERATIONS: 'accounts.guides',
        LENS_PRICES: JSON.stringify({ 'accounts.profile': { base: 3 } }),
        // Long enough for any look-up to finish within the call: its answer is terminal.
        LENS_SYNC_BUDGET_MS: '30000',
      }),
    ]);
    token = made[0];
    await start('rest adapter (deployment settings)', 'rest-adapter/src/main.ts', {
      REST_PORT: String(restPort),
      LENS_SUBGRAPH_URL: `http://127.0.0.1:${lensPort}/graphql`,
      SETTLEMENT_SUBGRAPH_URL: stack().settlement,
    });
    rest = `http://127.0.0.1:${restPort}`;
  });

  afterAll(async () => {
    for (const service of services.reverse()) await service.stop();
  });

  it('a switched-off operation is not listed; calling it anyway is refused as on REST', async () => {
    const client = await open(token, rest);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).not.toContain('lens_accounts_guides');
    expect(names).toHaveLength(14);
    const refused = await callTool(client, 'lens_accounts_guides', {
      accountRef: { handle: HANDLE },
      requestKey: newKey(),
    });
    expect(refused.isError).toBe(true);
    expect(refused.error).toMatchObject({ code: 'OPERATION_DISABLED', httpStatus: 403 });
    expect(refused.text).toContain('do not retry');
  });

  it('a description states the price in force, and the call is charged at it', async () => {
    const client = await open(token, rest);
    const { tools } = await client.listTools();
    const profile = tools.find((t) => t.name === 'lens_accounts_profile')!;
    expect(profile.description).toContain('Costs 3 credits per call.');
    const answer = await callTool(client, 'lens_accounts_profile', {
      accountRef: { handle: HANDLE },
      requestKey: newKey(),
    });
    expect(answer.envelope).toMatchObject({
      status: 'SUCCEEDED',
      credits: { reserved: 3, charged: 3, refunded: 0 },
    });
  });
});
