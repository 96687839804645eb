import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSql, type Sql } from '@campaign/stack';
import { credentials, newAccount, type Account } from '../lens/account-support.js';
import { stack } from '../support/clients.js';
import { answerOf, newKey, VALID_BODIES } from './mcp-client.js';
import {
  authorizationUrl,
  connectWithOAuth,
  consent,
  discover,
  exchangeCode,
  mcpStatus,
  mcpWithToken,
  pkce,
  register,
} from './oauth-client.js';

/**
 * Issue 25, the refusals of MCP authorization on the running stack: denial, a wrong PKCE
 * verifier, a token for another resource, an expired token, a connection's credits cap, and a
 * consent with a credential lens refuses. The consent form is posted as the page's buttons do.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
let account: Account;
let db: Sql;

beforeAll(async () => {
  account = await newAccount('--credits', '500');
  db = await connectSql(stack().lensDatabase);
});

afterAll(async () => {
  await db?.end();
});

async function authorization(scope = ['accounts.profile']) {
  const found = await discover();
  const client = await register(found, REDIRECT);
  const { verifier, challenge } = pkce();
  return {
    found,
    client,
    verifier,
    url: authorizationUrl(found, client, REDIRECT, challenge, { scope }),
  };
}

/** The code the client gets when the person approves `accounts.profile` with their key. */
async function approvedCode(url: string): Promise<string> {
  const { redirect } = await consent(url, {
    decision: 'approve',
    credential: account.restKey,
    operations: ['accounts.profile'],
  });
  return redirect!.searchParams.get('code')!;
}

describe('MCP authorization refusals', () => {
  it('denial sends the client access_denied and makes no connection', async () => {
    const before = (await credentials(account.console)).length;
    const { url } = await authorization();
    const { redirect } = await consent(url, { decision: 'deny' });
    expect(redirect?.searchParams.get('error')).toBe('access_denied');
    expect(redirect?.searchParams.get('code')).toBeNull();
    expect((await credentials(account.console)).length).toBe(before);
  });

  it('a credential lens refuses shows the page again with the reason, and no code', async () => {
    const { url } = await authorization();
    const answer = await consent(url, {
      decision: 'approve',
      credential: 'lk_live_not-a-key-of-anyone',
      operations: ['accounts.profile'],
    });
    expect(answer.redirect).toBeUndefined();
    expect(answer.page?.status).toBe(401);
    expect(answer.page?.html).toMatch(/id="error">Not connected: .*unknown or revoked/);
  });

  it('the person may grant less than asked: the token carries only what was chosen', async () => {
    const { found, client, verifier, url } = await authorization([
      'accounts.profile',
      'accounts.posts',
    ]);
    const code = await approvedCode(url);
    const exchanged = await exchangeCode(found, client, REDIRECT, code, verifier);
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect(exchanged.body.scope).toBe('accounts.profile');
  });

  it('a wrong PKCE verifier gets no token', async () => {
    const { found, client, url } = await authorization();
    const code = await approvedCode(url);
    const refused = await exchangeCode(found, client, REDIRECT, code, pkce().verifier);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });

  it('plain PKCE and other response types are refused', async () => {
    const { found, client } = await authorization();
    const plain = new URL(authorizationUrl(found, client, REDIRECT, 'x'.repeat(43)));
    plain.searchParams.set('code_challenge_method', 'plain');
    const answer = await fetch(plain, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(found.metadata['response_types_supported']).toEqual(['code']);
  });

  it('a token for another resource is neither issued nor accepted', async () => {
    const { found, client } = await authorization();
    const { challenge } = pkce();
    const other = authorizationUrl(found, client, REDIRECT, challenge, {
      resource: 'http://127.0.0.1:9/mcp',
    });
    const { redirect } = await consent(other, { decision: 'deny' });
    expect(redirect?.searchParams.get('error')).toBe('invalid_target');

    // A live token of this server whose audience is another resource (as another resource
    // server's token would be) is refused on /mcp.
    const { tokens } = await connectWithOAuth(account.restKey, {
      operations: ['accounts.profile'],
    });
    expect((await mcpStatus(tokens.access_token)).status).toBe(200);
    const forged = randomBytes(32).toString('base64url');
    await db.query(
      `insert into oauth_payload (model, id, payload, grant_id, expires_at)
       select model, $2, payload || jsonb_build_object('jti', $2::text, 'aud', $3::text), grant_id,
         expires_at
       from oauth_payload where model = 'AccessToken' and id = $1`,
      [tokens.access_token, forged, 'http://127.0.0.1:9/mcp'],
    );
    const refused = await mcpStatus(forged);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
  });

  it('an expired token is refused with the challenge that leads back to the authorization server', async () => {
    const { found, tokens } = await connectWithOAuth(account.restKey, {
      operations: ['accounts.profile'],
    });
    expect(tokens.expires_in).toBeLessThanOrEqual(3600);
    expect((await mcpStatus(tokens.access_token)).status).toBe(200);
    // Its hour passed: the stored token's expiry and its own `exp` moved into the past.
    await db.query(
      `update oauth_payload set expires_at = now() - interval '1 second',
         payload = payload || jsonb_build_object('exp', extract(epoch from now())::bigint - 1)
       where model = 'AccessToken' and id = $1`,
      [tokens.access_token],
    );
    const refused = await mcpStatus(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toBe(
      `Bearer realm="campaign-platform", error="invalid_token", resource_metadata="${found.resourceMetadataUrl}"`,
    );
  });

  it('a token revoked at the revocation endpoint is refused at once', async () => {
    const { found, client, tokens } = await connectWithOAuth(account.restKey, {
      operations: ['accounts.profile'],
    });
    expect((await mcpStatus(tokens.access_token)).status).toBe(200);
    const revoked = await fetch(found.revocationEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: client.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect((await mcpStatus(tokens.access_token)).status).toBe(401);
  });

  it('a call beyond the credits cap is a tool error naming the cap', async () => {
    const { tokens } = await connectWithOAuth(account.restKey, {
      operations: ['accounts.profile'],
      cap: 2,
    });
    const connection = (await credentials(account.console)).at(-1);
    expect(connection).toMatchObject({ kind: 'oauth' });
    const mcp = await mcpWithToken(tokens.access_token);
    try {
      const call = async () =>
        answerOf(
          (await mcp.callTool({
            name: 'lens_accounts_profile',
            arguments: { ...VALID_BODIES['accounts.profile'], requestKey: newKey() },
          })) as CallToolResult,
        );
      // accounts.profile costs 1 credit: two calls fit in a cap of 2, the third does not.
      expect((await call()).isError).toBe(false);
      expect((await call()).isError).toBe(false);
      const refused = await call();
      expect(refused.isError).toBe(true);
      expect(refused.error?.code).toBe('CREDITS_CAP_EXCEEDED');
      expect(refused.text).toContain('credits cap is 2 credits');
      // A tool the connection was not granted is not offered, and refused if called.
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('lens_accounts_posts');
    } finally {
      await mcp.close();
    }
  });
});
