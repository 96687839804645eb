import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cli, keyArgs, useCli } from '../support/cli.js';
import { rest } from '../support/clients.js';
import * as engine from './engine-support.js';
import { eventually } from '../support/wait.js';

const GOOD = { accountRef: { handle: 'minji.daily' } };

describe('lens error statuses of spec section 7 (DESIGN.md L1, L2)', () => {
  const sql = engine.useLensDatabase();
  const keys = useCli({
    key: keyArgs('--credits', '100'),
    revocable: keyArgs('--credits', '10'),
    mcp: keyArgs('--kind', 'mcp'),
    poor: keyArgs('--credits', '0'),
    searchOnly: keyArgs('--operations', 'accounts.search', '--credits', '0'),
    starter: keyArgs('--plan', 'starter', '--credits', '0'),
    other: keyArgs('--credits', '1'),
  });
  const tenant = engine.useTenantOf(sql, () => keys.key);

  it('400 INVALID_REQUEST for a bad body, before the credential is looked at', async () => {
    for (const body of [
      {},
      { accountRef: { handle: 'bad handle!' } },
      { accountRef: { handle: 'a', accountId: '1' } },
      { accountRef: { accountId: '0123' } },
      { ...GOOD, detail: 'full' },
      { ...GOOD, extra: true },
    ]) {
      engine.expectError(await engine.profile(keys.key, body), 400, 'INVALID_REQUEST', false);
    }
    const malformed = await rest('POST', '/api/lens/v1/accounts/profile', {
      token: keys.key,
      body: '{"accountRef":',
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(malformed.status).toBe(400);
    // Input is checked first: no credential at all, and still a 400.
    engine.expectError(await engine.profile(undefined, { nope: 1 }), 400, 'INVALID_REQUEST', false);
    engine.expectError(
      await engine.profile('lk_live_unknown', { nope: 1 }),
      400,
      'INVALID_REQUEST',
      false,
    );
  });

  it('bad input changes nothing in the database', async () => {
    const before = await engine.tenantState(sql(), tenant.id);
    const countedBefore = await engine.rateCounted(sql(), tenant.id);
    await Promise.all([
      engine.profile(keys.key, { accountRef: { handle: 'x'.repeat(31) } }),
      engine.profile(keys.key, { accountRef: {} }),
      engine.profile(keys.key, GOOD, null),
      engine.profile(keys.key, GOOD, ''),
      engine.profile(keys.key, GOOD, 'k'.repeat(129)),
    ]);
    expect(await engine.tenantState(sql(), tenant.id)).toEqual(before);
    // Not even the tenant's rate-limit count moved: input is checked before it.
    expect(await engine.rateCounted(sql(), tenant.id)).toBe(countedBefore);
  });

  it('401 UNAUTHENTICATED without a key, with an unknown key, and with a revoked key', async () => {
    engine.expectError(await engine.profile(undefined, GOOD), 401, 'UNAUTHENTICATED', false);
    engine.expectError(
      await engine.profile('lk_live_not-a-real-key', GOOD),
      401,
      'UNAUTHENTICATED',
      false,
    );
    engine.expectError(await engine.profile('garbage', GOOD), 401, 'UNAUTHENTICATED', false);
    expect((await engine.profile(keys.revocable, GOOD)).status).toBe(200);
    expect(await cli('lens:revoke-key', keys.revocable)).toBe('revoked');
    // Refused once the revocation's notification reached lens (docs/lens-engine.md), well within
    // the key cache's 5 s: the request may arrive before the notification on a busy machine.
    const refused = await eventually(
      () => engine.profile(keys.revocable, GOOD),
      (answer) => answer.status === 401,
      'the revoked key refused',
      3_000,
      50,
    );
    engine.expectError(refused, 401, 'UNAUTHENTICATED', false);
    await expect(cli('lens:revoke-key', keys.revocable)).rejects.toThrow(/no active key/);
  });

  it('401 TOOL_TOKEN_NOT_ALLOWED for a tool-protocol (MCP) token on REST', async () => {
    expect(keys.mcp).toMatch(/^lmcp_/);
    engine.expectError(await engine.profile(keys.mcp, GOOD), 401, 'TOOL_TOKEN_NOT_ALLOWED', false);
  });

  it('402 INSUFFICIENT_CREDITS: nothing reserved, no operation, no ledger entry', async () => {
    const poorTenant = await engine.tenantIdOf(sql(), keys.poor);
    const before = await engine.tenantState(sql(), poorTenant);
    engine.expectError(await engine.profile(keys.poor, GOOD), 402, 'INSUFFICIENT_CREDITS', false);
    expect(await engine.tenantState(sql(), poorTenant)).toEqual(before);
    await cli('lens:credits', keys.poor, '--add', '1');
    expect((await engine.profile(keys.poor, GOOD)).status).toBe(200);
    expect(await cli('lens:credits', keys.poor)).toBe('0');
  });

  it('403 PERMISSION_DENIED and PLAN_REQUIRED, checked before rate limit and credits', async () => {
    engine.expectError(
      await engine.profile(keys.searchOnly, GOOD),
      403,
      'PERMISSION_DENIED',
      false,
    );
    const posts = await rest('POST', '/api/lens/v1/accounts/posts', {
      token: keys.starter,
      body: GOOD,
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(posts.status).toBe(403);
    expect(posts.body['error']).toMatchObject({ code: 'PLAN_REQUIRED', httpStatus: 403 });
    // The starter plan does include the profile: then the balance decides.
    engine.expectError(
      await engine.profile(keys.starter, GOOD),
      402,
      'INSUFFICIENT_CREDITS',
      false,
    );
  });

  it('403 ACCOUNT_PRIVATE: a failed execution with its envelope, refunded', async () => {
    const result = await rest<Record<string, unknown>>('POST', '/api/lens/v1/accounts/posts', {
      token: keys.key,
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
    const result = await engine.profile(keys.key, { accountRef: { handle: 'missing_nobody' } });
    engine.expectError(result, 404, 'ACCOUNT_NOT_FOUND', false);
    const envelope = result.body.data!;
    expect(envelope).toMatchObject({ status: 'FAILED', replayed: false });
    expect(envelope.credits.charged).toBe(0);
    expect(envelope.credits.refunded).toBe(envelope.credits.reserved);
    expect(envelope.error).toEqual(result.body.error);
  });

  it('404 OPERATION_NOT_FOUND for unknown, malformed and other tenants’ operation ids', async () => {
    const mine = await engine.profile(keys.key, GOOD);
    const operationId = mine.body.data!.operationId;
    expect((await engine.status(keys.key, operationId)).status).toBe(200);
    for (const [token, id] of [
      [keys.key, randomUUID()],
      [keys.key, 'not-a-uuid'],
      [keys.key, `${operationId}x`],
      [keys.other, operationId],
    ] as const) {
      engine.expectError(await engine.status(token, id), 404, 'OPERATION_NOT_FOUND', false);
    }
  });

  it('503 UPSTREAM_UNAVAILABLE (retryable) when the upstream fails: FAILED and refunded', async () => {
    const before = await engine.tenantState(sql(), tenant.id);
    const result = await engine.profile(keys.key, { accountRef: { handle: 'flaky_minji' } });
    engine.expectError(result, 503, 'UPSTREAM_UNAVAILABLE', true);
    expect(result.body.data).toMatchObject({
      status: 'FAILED',
      credits: { reserved: 1, charged: 0, refunded: 1 },
    });
    const after = await engine.tenantState(sql(), tenant.id);
    expect(after.balance).toBe(before.balance);
    expect(after.ledgerSum).toBe(after.balance);
  });
});
