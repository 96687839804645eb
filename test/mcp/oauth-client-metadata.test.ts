import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type Account } from '../lens/account-support.js';
import {
  authorizationUrl,
  consent,
  discover,
  mcpStatus,
  pkce,
  tokenRequest,
} from './oauth-client.js';

/**
 * Issue 25: a client identified by a client ID metadata document (its client_id is the URL of
 * its metadata) connects without registering. On loopback the development issuer accepts an
 * http document; deployments take https only (rest-adapter/src/oauth/client-id-metadata.ts).
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
let server: Server;
let clientId: string;
let account: Account;

beforeAll(async () => {
  server = createServer((request, response) => {
    const body =
      request.url === '/client.json'
        ? {
            client_id: clientId,
            client_name: 'Metadata Document Client',
            redirect_uris: [REDIRECT],
          }
        : { client_id: 'https://elsewhere.example/client.json', redirect_uris: [REDIRECT] };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  clientId = `http://127.0.0.1:${port}/client.json`;
  account = await newAccount('--credits', '100');
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('client ID metadata documents', () => {
  it('are announced, and such a client is authorized and gets a token without registering', async () => {
    const found = await discover();
    expect(found.metadata['client_id_metadata_document_supported']).toBe(true);
    const { verifier, challenge } = pkce();
    const client = { client_id: clientId, client_name: '' };
    const url = authorizationUrl(found, client, REDIRECT, challenge, {
      scope: ['accounts.profile'],
    });
    const { redirect } = await consent(url, {
      decision: 'approve',
      credential: account.restKey,
      operations: ['accounts.profile'],
    });
    const code = redirect?.searchParams.get('code');
    expect(code, redirect?.toString()).toBeTruthy();
    const exchanged = await tokenRequest(found, {
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: found.resource,
    });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect((await mcpStatus(exchanged.body.access_token)).status).toBe(200);
  });

  it('a document that does not name itself is no client', async () => {
    const found = await discover();
    const other = clientId.replace('/client.json', '/other.json');
    const url = authorizationUrl(
      found,
      { client_id: other, client_name: '' },
      REDIRECT,
      pkce().challenge,
    );
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('invalid_client');
  });
});
