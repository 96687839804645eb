import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { lensServicesAtRest } from '../support/lens-services.js';
import type { Caller } from '@campaign/lens';
import { useServiceDatabase } from '../support/service-database.js';

/**
 * The start path of a lens operation (DESIGN.md L2, L3, L5) against real PostgreSQL, without
 * services: OperationService called directly. Nothing executes here (no inline execution, a sync
 * budget of 0), so every accepted operation stays RUNNING with its reservation and its lease, as
 * it would in a process that died right after the start (the reconciler's case).
 */
const orm = useServiceDatabase('lens');
// The upstream is never called: nothing executes here.
const services = lensServicesAtRest('lens-engine-test', {
  LENS_DISABLED_OPERATIONS: ['accounts.guides'],
});

const REF = { accountRef: { handle: 'minji.daily' } };

async function tenant(
  options: { credits?: number; plan?: string; permissions?: string[]; perMinute?: number } = {},
) {
  const { apiKey, tenantId } = await services.tenants.createTenantWithKey(orm().em.fork(), {
    name: `engine-${randomUUID()}`,
    plan: options.plan ?? 'default',
    permissions: options.permissions ?? ['*'],
    rateLimitPerMinute: options.perMinute ?? 100,
    credits: options.credits ?? 100,
    kind: 'rest',
  });
  let authentications = 0;
  const em = orm().em.fork();
  const authenticate = (): Promise<Caller> => {
    authentications += 1;
    return services.tenants.authenticateCaller(em, `Bearer ${apiKey}`);
  };
  const run = (operation: string, input: unknown, key: string = randomUUID()) =>
    services.operations.run(orm().em.fork(), authenticate, operation, key, input);
  return { tenantId, run, authentications: () => authentications };
}

/** Everything the start path can write for a tenant. */
async function written(tenantId: string) {
  const em: EntityManager = orm().em.fork();
  const [row] = await em.execute<Record<string, string>[]>(
    `select (select credit_balance from tenant where id = ?) as balance,
       (select count(*) from operation where tenant_id = ?) as operations,
       (select coalesce(string_agg(kind || ' ' || amount, ', ' order by id), '')
          from credit_ledger_entry where tenant_id = ?) as ledger,
       (select count(*) from operation where tenant_id = ?
          and status = 'RUNNING' and lease_expires_at > now()) as leased,
       (select rate_window_hits from tenant where id = ?) as counted`,
    [tenantId, tenantId, tenantId, tenantId, tenantId],
  );
  return {
    balance: Number(row!['balance']),
    operations: Number(row!['operations']),
    ledger: row!['ledger'],
    leased: Number(row!['leased']),
    counted: Number(row!['counted']),
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error('accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return (error as PlatformError).code;
}

describe('OperationService: the start path of a lens operation', () => {
  it('accepts: RUNNING, the upper bound reserved, the price kept, the lease taken, one request counted', async () => {
    const t = await tenant();
    const { operation, replayed } = await t.run('accounts.posts', REF);
    expect(replayed).toBe(false);
    expect(operation).toMatchObject({ status: 'RUNNING', creditsReserved: '13' });
    expect(operation.input).toEqual({ ...REF, cursor: null, pageSize: 12 });
    expect(await written(t.tenantId)).toEqual({
      balance: 87,
      operations: 1,
      ledger: 'TOP_UP 100, RESERVE -13',
      leased: 1,
      counted: 1,
    });
  });

  it('checks in order: Idempotency-Key and input (400) before the credential, then access (403)', async () => {
    const t = await tenant({ plan: 'starter', permissions: ['accounts.profile'] });
    expect(await refusal(t.run('accounts.profile', { accountRef: {} }, ''))).toBe(
      'INVALID_REQUEST',
    );
    expect(await refusal(t.run('accounts.profile', { accountRef: { handle: 'a b' } }))).toBe(
      'INVALID_REQUEST',
    );
    expect(t.authentications()).toBe(0);
    // Disabled in the deployment, then the plan, then the key's permissions.
    expect(await refusal(t.run('accounts.guides', REF))).toBe('OPERATION_DISABLED');
    expect(await refusal(t.run('accounts.posts', REF))).toBe('PLAN_REQUIRED');
    expect(await refusal(t.run('accounts.search', { search: 'minji' }))).toBe('PERMISSION_DENIED');
    expect(await written(t.tenantId)).toMatchObject({ operations: 0, leased: 0, counted: 0 });
  });

  it('an unknown key is 401, a tool token 401 TOOL_TOKEN_NOT_ALLOWED', async () => {
    const em = orm().em.fork();
    for (const [credential, code] of [
      ['Bearer lk_live_unknown', 'UNAUTHENTICATED'],
      ['Bearer lmcp_tool', 'TOOL_TOKEN_NOT_ALLOWED'],
    ] as const) {
      const caller = () => services.tenants.authenticateCaller(em, credential);
      const started = services.operations.run(em, caller, 'accounts.profile', randomUUID(), REF);
      expect(await refusal(started)).toBe(code);
    }
  });

  it('the same key and input replays (nothing written but the count); other input is 409', async () => {
    const t = await tenant({ credits: 10 });
    const key = randomUUID();
    const first = await t.run('accounts.profile', REF, key);
    // Key order and a default written out do not change the input's identity.
    const again = await t.run(
      'accounts.profile',
      { detail: 'standard', accountRef: { handle: 'minji.daily' } },
      key,
    );
    expect(again).toMatchObject({ replayed: true, operation: { id: first.operation.id } });
    const state = await written(t.tenantId);
    expect(state).toMatchObject({ operations: 1, ledger: 'TOP_UP 10, RESERVE -1', counted: 2 });
    expect(await refusal(t.run('accounts.profile', { ...REF, detail: 'extended' }, key))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await written(t.tenantId)).toEqual({ ...state, counted: 3 });
  });

  it('the same key on another operation is 409 too, and the rate limit counts replays (429)', async () => {
    const t = await tenant({ perMinute: 2 });
    const key = randomUUID();
    await t.run('accounts.profile', REF, key);
    expect(await refusal(t.run('accounts.about', REF, key))).toBe('IDEMPOTENCY_KEY_REUSED');
    // Two requests a minute for this key: the third is refused before idempotency.
    expect(await refusal(t.run('accounts.profile', REF, key))).toBe('RATE_LIMITED');
    expect(await written(t.tenantId)).toMatchObject({ operations: 1, counted: 3 });
  });

  it('insufficient credits: 402 after the count, and no operation, ledger entry or lease', async () => {
    const t = await tenant({ credits: 12 });
    expect(await refusal(t.run('accounts.posts', REF))).toBe('INSUFFICIENT_CREDITS');
    expect(await written(t.tenantId)).toEqual({
      balance: 12,
      operations: 0,
      ledger: 'TOP_UP 12',
      leased: 0,
      counted: 1,
    });
    // A smaller page fits: the reservation is the upper bound of what was asked.
    await t.run('accounts.posts', { ...REF, pageSize: 11 });
    expect(await written(t.tenantId)).toMatchObject({ balance: 0, operations: 1, leased: 1 });
  });

  it('concurrent requests with one key start one operation with one reservation', async () => {
    const t = await tenant();
    const key = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => t.run('accounts.profile', REF, key)),
    );
    expect(new Set(outcomes.map((o) => o.operation.id)).size).toBe(1);
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(await written(t.tenantId)).toMatchObject({
      operations: 1,
      ledger: 'TOP_UP 100, RESERVE -1',
    });
  });
});
