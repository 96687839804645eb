import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import type { Caller } from '@campaign/lens';
import { lensServicesAtRest, restTenant } from '../support/lens-services.js';
import { useServiceDatabase } from '../support/service-database.js';

/**
 * Issue 27 (billed call, second pass): the tenant's rate-limit window lives on the tenant row and
 * the start statement counts the request with its reservation (migration tenant_rate_window).
 * What must still hold: the limit exact under concurrency, every request counted once (replays,
 * 429 and 402 refusals, a capped credential's count before its cap check), a concurrent start of
 * one key reserving once, and the balance equal to its ledger.
 */
const orm = useServiceDatabase('lens');
// Nothing executes: every accepted operation stays RUNNING with its reservation.
const services = lensServicesAtRest('lens-rate-window-test');
const REF = { accountRef: { handle: 'minji.daily' } };

async function tenant(perMinute: number, credits: number, creditsCap: number | null = null) {
  const { apiKey, tenantId } = await restTenant(services, orm().em.fork(), 'rate-window', {
    rateLimitPerMinute: perMinute,
    credits,
  });
  const em = orm().em.fork();
  const authenticate = async (): Promise<Caller> => ({
    ...(await services.tenants.authenticateCaller(em, `Bearer ${apiKey}`)),
    ...(creditsCap === null ? {} : { creditsCap }),
  });
  const run = (key: string = randomUUID()) =>
    services.operations.run(orm().em.fork(), authenticate, 'accounts.profile', key, REF).then(
      (outcome) => (outcome.replayed ? 'replayed' : 'accepted'),
      (err: unknown) => (err instanceof PlatformError ? err.code : Promise.reject(err)),
    );
  return { tenantId, run };
}

async function state(tenantId: string) {
  const [row] = await orm()
    .em.fork()
    .execute<Record<string, string>[]>(
      `select t.credit_balance as balance, t.rate_window_hits as counted,
         (select coalesce(sum(amount), 0) from credit_ledger_entry where tenant_id = t.id) as ledger,
         (select count(*) from credit_ledger_entry where tenant_id = t.id and kind = 'RESERVE')
           as reserves,
         (select count(*) from operation where tenant_id = t.id) as operations
       from tenant t where t.id = ?`,
      [tenantId],
    );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

const tally = (codes: string[]) =>
  codes.reduce<Record<string, number>>((n, c) => ({ ...n, [c]: (n[c] ?? 0) + 1 }), {});

describe('the rate-limit window on the tenant row, counted by the start statement', () => {
  it('exact under concurrency: 30 calls on a limit of 10 are 10 accepted and 20 × 429, all counted', async () => {
    const t = await tenant(10, 100);
    const codes = await Promise.all(Array.from({ length: 30 }, () => t.run()));
    expect(tally(codes)).toEqual({ accepted: 10, RATE_LIMITED: 20 });
    expect(await state(t.tenantId)).toEqual({
      balance: 90,
      counted: 30,
      ledger: 90,
      reserves: 10,
      operations: 10,
    });
  });

  it('402 keeps its count, and the limit still comes first (L2)', async () => {
    const t = await tenant(3, 1);
    expect([await t.run(), await t.run(), await t.run(), await t.run()]).toEqual([
      'accepted',
      'INSUFFICIENT_CREDITS',
      'INSUFFICIENT_CREDITS',
      'RATE_LIMITED',
    ]);
    expect(await state(t.tenantId)).toEqual({
      balance: 0,
      counted: 4,
      ledger: 0,
      reserves: 1,
      operations: 1,
    });
  });

  it('one key started 12 times at once: one operation, one reservation, 12 counted', async () => {
    const t = await tenant(100, 10);
    const key = randomUUID();
    const codes = await Promise.all(Array.from({ length: 12 }, () => t.run(key)));
    expect(tally(codes)).toEqual({ accepted: 1, replayed: 11 });
    expect(await state(t.tenantId)).toEqual({
      balance: 9,
      counted: 12,
      ledger: 9,
      reserves: 1,
      operations: 1,
    });
  });

  it('a capped credential is counted once, before its cap check', async () => {
    const t = await tenant(3, 100, 1);
    expect([await t.run(), await t.run(), await t.run(), await t.run()]).toEqual([
      'accepted',
      'CREDITS_CAP_EXCEEDED',
      'CREDITS_CAP_EXCEEDED',
      'RATE_LIMITED',
    ]);
    expect(await state(t.tenantId)).toMatchObject({ counted: 4, reserves: 1, balance: 99 });
  });

  it('a window that has ended restarts with the next request', async () => {
    const t = await tenant(1, 10);
    expect(await t.run()).toBe('accepted');
    expect(await t.run()).toBe('RATE_LIMITED');
    await orm()
      .em.fork()
      .execute(`update tenant set rate_window_start = now() - interval '61 seconds' where id = ?`, [
        t.tenantId,
      ]);
    expect(await t.run()).toBe('accepted');
    expect(await state(t.tenantId)).toMatchObject({ counted: 1, reserves: 2, balance: 8 });
  });
});
