import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Sql } from '@campaign/stack';
import { cli } from '../support/cli.js';
import { profile, tenantIdOf, tenantState, useLensDatabase } from '../lens/engine-support.js';
import { restOp } from '../lens/lens-client.js';
import { callTool, HANDLE, newKey, useClients, type ToolAnswer } from './mcp-client.js';

const GOOD = { accountRef: { handle: HANDLE } };
const POSTS = { accountRef: { handle: 'mcp.credits' }, pageSize: 5 };

async function ledgerOf(sql: Sql, apiKey: string): Promise<[string, number][]> {
  const rows = await sql.query<{ kind: string; amount: string }>(
    `select kind, amount from credit_ledger_entry where tenant_id = $1 order by id`,
    [await tenantIdOf(sql, apiKey)],
  );
  return rows.map((r) => [r.kind, Number(r.amount)]);
}

function expectRefusal(answer: ToolAnswer, code: string, httpStatus: number, retryable = false) {
  expect(answer.isError, answer.text).toBe(true);
  expect(answer.error).toMatchObject({ code, httpStatus, retryable });
  expect(answer.text).toContain(`${code} (HTTP ${httpStatus}, retryable: ${retryable})`);
}

/** The engine's rules over the tool protocol: the same ones as REST, never re-implemented. */
describe('idempotency, credits and refusals over MCP (issue 13, DESIGN.md L2, L3, L5)', () => {
  const sql = useLensDatabase();
  const open = useClients();
  let client: Client;
  let token: string;
  const keys = { mcpFifty: '', restFifty: '', poor: '', starter: '', searchOnly: '', limited: '' };

  beforeAll(async () => {
    // Every key of the file at once: each CLI run is a process start.
    const mcp = (...args: string[]) => cli('lens:create-key', '--kind', 'mcp', ...args);
    [token, keys.mcpFifty, keys.restFifty, keys.poor, keys.starter, keys.searchOnly, keys.limited] =
      await Promise.all([
        mcp('--credits', '100'),
        mcp('--credits', '50'),
        cli('lens:create-key', '--credits', '50'),
        mcp('--credits', '0'),
        mcp('--plan', 'starter'),
        mcp('--operations', 'accounts.search'),
        mcp('--rate-limit', '1'),
      ]);
    client = await open(token);
  });

  it('the same requestKey and arguments replay the execution: run once, charged once', async () => {
    const tenantId = await tenantIdOf(sql(), token);
    const before = await tenantState(sql(), tenantId);
    const requestKey = newKey();
    const first = await callTool(client, 'lens_accounts_profile', { ...GOOD, requestKey });
    // Key order and a default written out do not change the identity (L5).
    const again = await callTool(client, 'lens_accounts_profile', {
      requestKey,
      detail: 'standard',
      accountRef: { handle: HANDLE },
    });
    expect(first.envelope).toMatchObject({ status: 'SUCCEEDED', replayed: false });
    expect(again.envelope).toEqual({ ...first.envelope, replayed: true });
    expect(again.text).toContain('replayed');
    const after = await tenantState(sql(), tenantId);
    expect(after.operations - before.operations).toBe(1);
    expect(after.balance).toBe(before.balance - 1);
    expect(after.ledgerEntries - before.ledgerEntries).toBe(3);
  });

  it('the same requestKey with other arguments is the 409 refusal, and runs nothing', async () => {
    const requestKey = newKey();
    await callTool(client, 'lens_accounts_profile', { ...GOOD, requestKey });
    const tenantId = await tenantIdOf(sql(), token);
    const before = await tenantState(sql(), tenantId);
    const other = await callTool(client, 'lens_accounts_about', { ...GOOD, requestKey });
    expectRefusal(other, 'IDEMPOTENCY_KEY_REUSED', 409);
    expect(other.error!.message).toContain('requestKey');
    expect(other.text).toContain('use a new requestKey');
    expect(await tenantState(sql(), tenantId)).toEqual(before);
  });

  it('a missing or out-of-range requestKey, or bad arguments, is a 400 that writes nothing', async () => {
    const tenantId = await tenantIdOf(sql(), token);
    const before = await tenantState(sql(), tenantId);
    const missing = await callTool(client, 'lens_accounts_profile', GOOD);
    expectRefusal(missing, 'INVALID_REQUEST', 400);
    expect(missing.error!.message).toContain('requestKey is required');
    for (const requestKey of ['', 'k'.repeat(129)]) {
      const refused = await callTool(client, 'lens_accounts_profile', { ...GOOD, requestKey });
      expectRefusal(refused, 'INVALID_REQUEST', 400);
      expect(refused.error!.message).toBe('requestKey must be 1 to 128 characters.');
    }
    const badHandle = await callTool(client, 'lens_accounts_profile', {
      accountRef: { handle: 'bad handle!' },
      requestKey: newKey(),
    });
    expectRefusal(badHandle, 'INVALID_REQUEST', 400);
    expect(badHandle.error!.message).toMatch(/^arguments\.accountRef/);
    const nul = await callTool(client, 'lens_accounts_search', {
      search: 'a\u0000b',
      requestKey: newKey(),
    });
    expectRefusal(nul, 'INVALID_REQUEST', 400);
    expect(await tenantState(sql(), tenantId)).toEqual(before);
  });

  it('moves credits exactly as REST does for the same call (balance and ledger)', async () => {
    const { mcpFifty: mcpToken, restFifty: restKey } = keys;
    const mcp = await open(mcpToken);
    const tool = await callTool(mcp, 'lens_accounts_posts', { ...POSTS, requestKey: newKey() });
    const rest = await restOp('accounts.posts', POSTS, restKey);
    expect(tool.envelope!.credits).toEqual(rest.body.data!.credits);
    expect(tool.envelope!.credits).toEqual({ reserved: 6, charged: 6, refunded: 0 });
    const balances = await Promise.all([
      cli('lens:credits', mcpToken),
      cli('lens:credits', restKey),
    ]);
    expect(balances).toEqual(['44', '44']);
    const ledger = await ledgerOf(sql(), mcpToken);
    expect(ledger).toEqual(await ledgerOf(sql(), restKey));
    expect(ledger).toEqual([
      ['TOP_UP', 50],
      ['RESERVE', -6],
      ['RELEASE', 6],
      ['CHARGE', -6],
    ]);
  });

  it('402 equivalent: insufficient credits, top up and retry with the same requestKey', async () => {
    const { poor } = keys;
    const mcp = await open(poor);
    const requestKey = newKey();
    const refused = await callTool(mcp, 'lens_accounts_profile', { ...GOOD, requestKey });
    expectRefusal(refused, 'INSUFFICIENT_CREDITS', 402);
    expect(refused.text).toContain('Insufficient credits: top up');
    expect(await cli('lens:credits', poor, '--add', '5')).toBe('5');
    const retried = await callTool(mcp, 'lens_accounts_profile', { ...GOOD, requestKey });
    expect(retried.envelope).toMatchObject({ status: 'SUCCEEDED', replayed: false });
  });

  it('403 equivalents: outside the plan, outside the permissions (as REST)', async () => {
    const { starter, searchOnly } = keys;
    const plan = await callTool(await open(starter), 'lens_accounts_posts', {
      ...GOOD,
      requestKey: newKey(),
    });
    expectRefusal(plan, 'PLAN_REQUIRED', 403);
    const permission = await callTool(await open(searchOnly), 'lens_accounts_profile', {
      ...GOOD,
      requestKey: newKey(),
    });
    expectRefusal(permission, 'PERMISSION_DENIED', 403);
  });

  it('429 equivalent: past the token’s rate limit, wait and retry with the same requestKey', async () => {
    const mcp = await open(keys.limited);
    const first = await callTool(mcp, 'lens_accounts_profile', { ...GOOD, requestKey: newKey() });
    expect(first.envelope!.status).toBe('SUCCEEDED');
    const second = await callTool(mcp, 'lens_accounts_profile', { ...GOOD, requestKey: newKey() });
    expectRefusal(second, 'RATE_LIMITED', 429, true);
    expect(second.meta['lens/retryAfterSeconds']).toEqual(expect.any(Number));
    expect(second.text).toMatch(/wait \d+ seconds, then retry with the same requestKey/);
  });

  it('a FAILED execution is an error result with its envelope, refunded (as REST 404)', async () => {
    const missing = { accountRef: { handle: 'missing_mcp' } };
    const tool = await callTool(client, 'lens_accounts_profile', {
      ...missing,
      requestKey: newKey(),
    });
    const rest = await profile(keys.restFifty, missing);
    expect(rest.status).toBe(404);
    expect(tool.isError).toBe(true);
    expect(tool.envelope).toMatchObject({
      status: 'FAILED',
      error: rest.body.error,
      credits: rest.body.data!.credits,
    });
    expect(tool.text).toContain('Every reserved credit was refunded');
  });
});
