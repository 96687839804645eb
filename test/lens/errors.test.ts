import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { rest } from '../support/clients.js';
import {
  expectError,
  profile,
  status,
  tenantIdOf,
  tenantState,
  useLensDatabase,
} from './engine-support.js';

const GOOD = { accountRef: { handle: 'minji.daily' } };

describe('lens error statuses of spec section 7 (DESIGN.md L1, L2)', () => {
  const sql = useLensDatabase();
  let key: string;
  let tenantId: string;
  let revocable: string;
  let mcp: string;
  let poor: string;
  let searchOnly: string;
  let starter: string;
  let other: string;

  beforeAll(async () => {
    [key, revocable, mcp, poor, searchOnly, starter, other] = await Promise.all([
      cli('lens:create-key', '--credits', '100'),
      cli('lens:create-key', '--credits', '10'),
      cli('lens:create-key', '--kind', 'mcp'),
      cli('lens:create-key', '--credits', '0'),
      cli('lens:create-key', '--operations', 'accounts.search', '--credits', '0'),
      cli('lens:create-key', '--plan', 'starter', '--credits', '0'),
      cli('lens:create-key', '--credits', '1'),
    ]);
    tenantId = await tenantIdOf(sql(), key);
  });

  it('400 INVALID_REQUEST for a bad body, before the credential is looked at', async () => {
    for (const body of [
      {},
      { accountRef: { handle: 'bad handle!' } },
      { accountRef: { handle: 'a', accountId: '1' } },
      { accountRef: { accountId: '0123' } },
      { ...GOOD, detail: 'full' },
      { ...GOOD, extra: true },
    ]) {
      expectError(await profile(key, body), 400, 'INVALID_REQUEST', false);
    }
    const malformed = await rest('POST', '/api/lens/v1/accounts/profile', {
      token: key,
      body: '{"accountRef":',
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(malformed.status).toBe(400);
    // Input is checked first: no credential at all, and still a 400.
    expectError(await profile(undefined, { nope: 1 }), 400, 'INVALID_REQUEST', false);
    expectError(await profile('lk_live_unknown', { nope: 1 }), 400, 'INVALID_REQUEST', false);
  });

  it('bad input changes nothing in the database', async () => {
    const before = await tenantState(sql(), tenantId);
    await Promise.all([
      profile(key, { accountRef: { handle: 'x'.repeat(31) } }),
      profile(key, { accountRef: {} }),
      profile(key, GOOD, null),
      profile(key, GOOD, ''),
      profile(key, GOOD, 'k'.repeat(129)),
    ]);
    expect(await tenantState(sql(), tenantId)).toEqual(before);
    const [keyRow] = await sql().query(
      `select count(*)::int as n from rate_limit_window w join api_key k
         on w.bucket = 'api_key:' || k.id where k.tenant_id = $1`,
      [tenantId],
    );
    // Not even the rate-limit counter of the key moved: input is checked before it.
    expect(keyRow!['n']).toBe(0);
  });

  it('401 UNAUTHENTICATED without a key, with an unknown key, and with a revoked key', async () => {
    expectError(await profile(undefined, GOOD), 401, 'UNAUTHENTICATED', false);
    expectError(await profile('lk_live_not-a-real-key', GOOD), 401, 'UNAUTHENTICATED', false);
    expectError(await profile('garbage', GOOD), 401, 'UNAUTHENTICATED', false);
    expect((await profile(revocable, GOOD)).status).toBe(200);
    expect(await cli('lens:revoke-key', revocable)).toBe('revoked');
    expectError(await profile(revocable, GOOD), 401, 'UNAUTHENTICATED', false);
    await expect(cli('lens:revoke-key', revocable)).rejects.toThrow(/no active key/);
  });

  it('401 TOOL_TOKEN_NOT_ALLOWED for a tool-protocol (MCP) token on REST', async () => {
    expect(mcp).toMatch(/^lmcp_/);
    expectError(await profile(mcp, GOOD), 401, 'TOOL_TOKEN_NOT_ALLOWED', false);
  });

  it('402 INSUFFICIENT_CREDITS: nothing reserved, no operation, no ledger entry', async () => {
    const poorTenant = await tenantIdOf(sql(), poor);
    const before = await tenantState(sql(), poorTenant);
    expectError(await profile(poor, GOOD), 402, 'INSUFFICIENT_CREDITS', false);
    expect(await tenantState(sql(), poorTenant)).toEqual(before);
    await cli('lens:credits', poor, '--add', '1');
    expect((await profile(poor, GOOD)).status).toBe(200);
    expect(await cli('lens:credits', poor)).toBe('0');
  });

  it('403 PERMISSION_DENIED and PLAN_REQUIRED, checked before rate limit and credits', async () => {
    expectError(await profile(searchOnly, GOOD), 403, 'PERMISSION_DENIED', false);
    const posts = await rest('POST', '/api/lens/v1/accounts/posts', {
      token: starter,
      body: GOOD,
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(posts.status).toBe(403);
    expect(posts.body['error']).toMatchObject({ code: 'PLAN_REQUIRED', httpStatus: 403 });
    // The starter plan does include the profile: then the balance decides.
    expectError(await profile(starter, GOOD), 402, 'INSUFFICIENT_CREDITS', false);
  });

  it('403 ACCOUNT_PRIVATE: a failed execution with its envelope, refunded', async () => {
    const result = await rest<Record<string, unknown>>('POST', '/api/lens/v1/accounts/posts', {
      token: key,
      body: { accountRef: { handle: 'private_jisoo' } },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({
      success: false,
      error: { code: 'ACCOUNT_PRIVATE', httpStatus: 403, retryable: false },
      data: { status: 'FAILED', credits: { charged: 0 }, replayed: false },
    });
  });

  it('404 ACCOUNT_NOT_FOUND: FAILED, refunded, the envelope in data', async () => {
    const result = await profile(key, { accountRef: { handle: 'missing_nobody' } });
    expectError(result, 404, 'ACCOUNT_NOT_FOUND', false);
    const envelope = result.body.data!;
    expect(envelope).toMatchObject({ status: 'FAILED', replayed: false });
    expect(envelope.credits.charged).toBe(0);
    expect(envelope.credits.refunded).toBe(envelope.credits.reserved);
    expect(envelope.error).toEqual(result.body.error);
  });

  it('404 OPERATION_NOT_FOUND for unknown, malformed and other tenants’ operation ids', async () => {
    const mine = await profile(key, GOOD);
    const operationId = mine.body.data!.operationId;
    expect((await status(key, operationId)).status).toBe(200);
    for (const [token, id] of [
      [key, randomUUID()],
      [key, 'not-a-uuid'],
      [key, `${operationId}x`],
      [other, operationId],
    ] as const) {
      expectError(await status(token, id), 404, 'OPERATION_NOT_FOUND', false);
    }
  });

  it('503 UPSTREAM_UNAVAILABLE (retryable) when the upstream fails: FAILED and refunded', async () => {
    const before = await tenantState(sql(), tenantId);
    const result = await profile(key, { accountRef: { handle: 'flaky_minji' } });
    expectError(result, 503, 'UPSTREAM_UNAVAILABLE', true);
    expect(result.body.data).toMatchObject({
      status: 'FAILED',
      credits: { reserved: 1, charged: 0, refunded: 1 },
    });
    const after = await tenantState(sql(), tenantId);
    expect(after.balance).toBe(before.balance);
    expect(after.ledgerSum).toBe(after.balance);
  });
});
