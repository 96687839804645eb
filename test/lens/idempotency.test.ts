import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyArgs, useCli } from '../support/cli.js';
import { errorCode, graphqlOp } from './lens-client.js';
import * as engine from './engine-support.js';

const GOOD = { accountRef: { handle: 'minji.daily' } };

describe('Idempotency-Key (lens spec 4, 7 rule 5, 8; DESIGN.md L5)', () => {
  const sql = engine.useLensDatabase();
  const keys = useCli({
    key: keyArgs('--credits', '1000', '--rate-limit', '1000'),
    otherKey: keyArgs('--credits', '1000'),
  });
  const tenant = engine.useTenantOf(sql, () => keys.key);

  it('accepts keys of 1 and 128 characters; refuses missing, empty and 129 characters (400)', async () => {
    for (const accepted of ['k', 'K'.repeat(128)]) {
      const result = await engine.profile(keys.key, GOOD, accepted);
      expect(await engine.settled(keys.key, result), JSON.stringify(result.body)).toMatchObject({
        status: 'SUCCEEDED',
      });
    }
    for (const bad of [null, '', 'k'.repeat(129)]) {
      engine.expectError(await engine.profile(keys.key, GOOD, bad), 400, 'INVALID_REQUEST', false);
    }
  });

  it('same key, same input: the existing execution, replayed, nothing charged again', async () => {
    const idempotencyKey = randomUUID();
    const first = await engine.settled(
      keys.key,
      await engine.profile(keys.key, GOOD, idempotencyKey),
    );
    expect(first).toMatchObject({ status: 'SUCCEEDED', replayed: false });
    const state = await engine.tenantState(sql(), tenant.id);
    // Key order and defaults do not change an input's identity.
    const again = await engine.profile(
      keys.key,
      { detail: 'standard', accountRef: { handle: 'minji.daily' } },
      idempotencyKey,
    );
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first, replayed: true });
    expect(again.headers.get('lens-observed-at')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await engine.tenantState(sql(), tenant.id)).toEqual(state);
  });

  it('same key, different input or operation: 409 IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const idempotencyKey = randomUUID();
    await engine.settled(keys.key, await engine.profile(keys.key, GOOD, idempotencyKey));
    const state = await engine.tenantState(sql(), tenant.id);
    engine.expectError(
      await engine.profile(keys.key, { accountRef: { handle: 'someone.else' } }, idempotencyKey),
      409,
      'IDEMPOTENCY_KEY_REUSED',
      false,
    );
    engine.expectError(
      await engine.profile(keys.key, { ...GOOD, detail: 'extended' }, idempotencyKey),
      409,
      'IDEMPOTENCY_KEY_REUSED',
      false,
    );
    const search = await graphqlOp('accounts.search', { search: 'minji' }, keys.key, {
      idempotencyKey,
    });
    expect(errorCode(search.errors)).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await engine.tenantState(sql(), tenant.id)).toEqual(state);
  });

  it('keys are per tenant: another tenant’s identical key is a new execution', async () => {
    const idempotencyKey = randomUUID();
    const mine = await engine.profile(keys.key, GOOD, idempotencyKey);
    const theirs = await engine.profile(keys.otherKey, GOOD, idempotencyKey);
    expect(theirs.body.data!.replayed).toBe(false);
    expect(await engine.settled(keys.otherKey, theirs)).toMatchObject({ status: 'SUCCEEDED' });
    expect(theirs.body.data!.operationId).not.toBe(mine.body.data!.operationId);
  });

  it('a FAILED execution is returned again with its status, never re-run', async () => {
    const idempotencyKey = randomUUID();
    const ghost = { accountRef: { handle: 'missing_ghost' } };
    const failed = await engine.settled(
      keys.key,
      await engine.profile(keys.key, ghost, idempotencyKey),
    );
    expect(failed).toMatchObject({ status: 'FAILED', error: { code: 'ACCOUNT_NOT_FOUND' } });
    const state = await engine.tenantState(sql(), tenant.id);
    const again = await engine.profile(keys.key, ghost, idempotencyKey);
    engine.expectError(again, 404, 'ACCOUNT_NOT_FOUND', false);
    expect(again.body.data).toEqual({ ...failed, replayed: true });
    expect(await engine.tenantState(sql(), tenant.id)).toEqual(state);
    const [row] = await sql().query<{ attempts: number }>(
      'select attempts from operation where id = $1',
      [failed.operationId],
    );
    expect(row!.attempts).toBe(1);
  });

  it('20 concurrent requests with one key execute once: one operation, one reservation', async () => {
    const idempotencyKey = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => engine.profile(keys.key, GOOD, idempotencyKey)),
    );
    // Each answer's terminal state (a replay waits up to the budget like the first call).
    const envelopes = await Promise.all(results.map((r) => engine.settled(keys.key, r)));
    for (const envelope of envelopes) expect(envelope).toMatchObject({ status: 'SUCCEEDED' });
    expect(new Set(envelopes.map((e) => e.operationId)).size).toBe(1);
    expect(results.filter((r) => !r.body.data!.replayed)).toHaveLength(1);
    const operationId = envelopes[0]!.operationId;
    const rows = await sql().query<{ kind: string; n: number }>(
      `select kind, count(*)::int as n from credit_ledger_entry where operation_id = $1
       group by kind order by kind`,
      [operationId],
    );
    expect(rows).toEqual([
      { kind: 'CHARGE', n: 1 },
      { kind: 'RELEASE', n: 1 },
      { kind: 'RESERVE', n: 1 },
    ]);
    const [count] = await sql().query<{ n: number }>(
      'select count(*)::int as n from operation where tenant_id = $1 and idempotency_key = $2',
      [tenant.id, idempotencyKey],
    );
    expect(count!.n).toBe(1);
  });

  it('GraphQL replays the same way', async () => {
    const idempotencyKey = randomUUID();
    const first = await graphqlOp('accounts.profile', GOOD, keys.key, { idempotencyKey });
    const again = await graphqlOp('accounts.profile', GOOD, keys.key, { idempotencyKey });
    expect(first.errors).toBeUndefined();
    expect(first.result!.replayed).toBe(false);
    expect(again.result).toMatchObject({ operationId: first.result!.operationId, replayed: true });
    const overRest = await engine.profile(keys.key, GOOD, idempotencyKey);
    expect(overRest.body.data!.operationId).toBe(first.result!.operationId);
    expect(overRest.body.data!.replayed).toBe(true);
  });
});
