import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@campaign/platform';
import { loadRestAdapterConfig, startRestAdapter } from '@campaign/rest-adapter';
import { freePort, releasePorts } from '@campaign/stack';
import { newAccount, type Account } from '../lens/account-support.js';
import { stack } from '../support/clients.js';
import { connectWithOAuth, mcpStatus } from './oauth-client.js';

/**
 * Issue 25: the authorization server's state is in PostgreSQL, so adapter replicas behind one
 * address (one REST_PUBLIC_URL) share it: a token issued by one is honoured by another, and a
 * revocation at one is a revocation at all. A second adapter, in this process, on the same
 * gateway and lens database.
 */

let replica: RunningServer;
let port: number;
let account: Account;

beforeAll(async () => {
  port = await freePort();
  replica = await startRestAdapter(
    loadRestAdapterConfig({
      REST_PORT: String(port),
      LENS_SUBGRAPH_URL: stack().lens,
      SETTLEMENT_SUBGRAPH_URL: stack().settlement,
      LENS_DATABASE_URL: stack().lensDatabase,
      REST_PUBLIC_URL: stack().rest,
      LOG_LEVEL: 'silent',
    }),
  );
  account = await newAccount('--credits', '100');
});

afterAll(async () => {
  await replica?.close();
  if (port) releasePorts([port]);
});

const toolsList = async (base: string, token: string) => (await mcpStatus(token, base)).status;

describe('MCP authorization across adapter replicas', () => {
  it('a token issued by one replica works on another; revoked at one, refused by both', async () => {
    const { client, tokens } = await connectWithOAuth(account.restKey, {
      operations: ['accounts.profile'],
    });
    expect(await toolsList(stack().rest, tokens.access_token)).toBe(200);
    expect(await toolsList(replica.url, tokens.access_token)).toBe(200);
    const revoked = await fetch(`${replica.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: client.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect(await toolsList(stack().rest, tokens.access_token)).toBe(401);
    expect(await toolsList(replica.url, tokens.access_token)).toBe(401);
  });
});
