import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import {
  credentials,
  newAccount,
  recentDays,
  usageQuery,
  type Account,
} from '../lens/account-support.js';
import { findBrowser, screenshot, useBrowser, watchedPage } from '../support/browser.js';
import { answerOf, newKey, VALID_BODIES } from './mcp-client.js';
import {
  authorizationUrl,
  callbackServer,
  discover,
  mcpStatus,
  mcpWithToken,
  pkce,
  register,
  tokenRequest,
  type Discovered,
  type Registered,
  type Tokens,
} from './oauth-client.js';

/**
 * Issue 25, "Done when": a hosted client's whole OAuth flow against the running stack, the
 * consent page approved by a person in a real headless Chromium (offline, its own CSP).
 */

const browserFound = findBrowser();
const GRANTED = ['accounts.profile', 'accounts.posts'];

describe.skipIf('skip' in browserFound)('MCP authorization: a hosted client connects', () => {
  const chromium = useBrowser(browserFound);
  let account: Account;
  let found: Discovered;
  let client: Registered;
  let tokens: Tokens;
  const callback = callbackServer();

  beforeAll(async () => {
    account = await newAccount('--credits', '500');
  });

  afterAll(async () => {
    await (await callback).close();
  });

  it('discovers the authorization server from a 401 on /mcp and registers itself', async () => {
    found = await discover();
    expect(found.resource).toMatch(/\/mcp$/);
    expect(found.scopesSupported).toEqual(expect.arrayContaining(GRANTED));
    expect(found.metadata).toMatchObject({
      issuer: found.issuer,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(found.authorizationEndpoint).toBe(`${found.issuer}/oauth/authorize`);
    expect(found.tokenEndpoint).toBe(`${found.issuer}/oauth/token`);
    expect(found.registrationEndpoint).toBe(`${found.issuer}/oauth/register`);
    expect(found.revocationEndpoint).toBe(`${found.issuer}/oauth/revoke`);
    client = await register(found, (await callback).uri);
    expect(client.client_id).toBeTruthy();
  });

  it('the person approves on the consent page in a browser; the code is exchanged with PKCE', async () => {
    const { uri, next } = await callback;
    const { verifier, challenge } = pkce();
    const { page, problems } = await watchedPage(chromium.browser);
    const shown = await page.goto(
      authorizationUrl(found, client, uri, challenge, { scope: GRANTED }),
    );
    await page.waitForSelector('#client-name');
    expect(await page.$eval('#client-name', (node) => node.textContent)).toBe(
      'Hosted Assistant (test)',
    );
    const csp = shown?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`form-action 'self' ${uri}`);
    // What the client asked for is checked; the person keeps it as it is.
    const checked = await page.$$eval('input[name=operation]:checked', (boxes) =>
      boxes.map((box) => (box as HTMLInputElement).value),
    );
    expect(checked.sort()).toEqual([...GRANTED].sort());
    await page.type('input[name=credential]', account.restKey);
    const arrived = next();
    await page.click('button[value=approve]');
    const query = await arrived;
    // The callback answered; the page's own navigation there may still be settling.
    await page.waitForFunction(
      () => location.pathname === '/callback' && document.readyState === 'complete',
    );
    await screenshot(page, 'oauth-consent-approved');
    expect(problems.outside).toEqual([]);
    expect(problems.errors).toEqual([]);
    const code = query.get('code');
    expect(code, query.toString()).toBeTruthy();
    const exchanged = await tokenRequest(found, {
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: uri,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: found.resource,
    });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    tokens = exchanged.body;
    expect(tokens.expires_in).toBeLessThanOrEqual(3600);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope?.split(' ').sort()).toEqual([...GRANTED].sort());
  });

  it('lists only the granted tools and calls a billed one, spending the account', async () => {
    const mcp = await mcpWithToken(tokens.access_token);
    try {
      const { tools } = await mcp.listTools();
      const names = tools.map((tool) => tool.name).sort();
      expect(names).toEqual([
        'lens_accounts_posts',
        'lens_accounts_profile',
        'lens_operations_status',
        'lens_usage',
      ]);
      const result = await mcp.callTool({
        name: 'lens_accounts_profile',
        arguments: { ...VALID_BODIES['accounts.profile'], requestKey: newKey() },
      });
      const answer = answerOf(result as CallToolResult);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.envelope?.status).toBe('SUCCEEDED');
    } finally {
      await mcp.close();
    }
    const list = await credentials(account.console);
    const connection = list.find((c) => c.kind === 'oauth');
    expect(connection).toMatchObject({ name: 'Hosted Assistant (test)', revokedAt: null });
    expect(connection?.lastUsedAt).not.toBeNull();
    const usage = await graphqlOk<{
      lensUsage: { rows: { credentialId: string; credentialKind: string; charged: number }[] };
    }>(usageQuery, recentDays(), account.console);
    const rows = usage.lensUsage.rows.filter((row) => row.credentialId === connection!.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ credentialKind: 'oauth' });
    expect(rows[0]!.charged).toBeGreaterThan(0);
  });

  it('refreshes the token (rotating the refresh token), then the console revokes it: refused', async () => {
    const refreshed = await tokenRequest(found, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: client.client_id,
      resource: found.resource,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpStatus(refreshed.body.access_token)).status).toBe(200);
    const reused = await tokenRequest(found, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: client.client_id,
    });
    expect(reused.body.error).toBe('invalid_grant');

    const connection = (await credentials(account.console)).find((c) => c.kind === 'oauth')!;
    await graphqlOk(
      'mutation($id: ID!) { revokeApiCredential(id: $id) { id revokedAt } }',
      { id: connection.id },
      account.console,
    );
    const refused = await mcpStatus(refreshed.body.access_token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(refused.challenge).toContain(`resource_metadata="${found.resourceMetadataUrl}"`);
  });
});
