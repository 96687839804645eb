import { describe, expect, it } from 'vitest';
import { CreditsService } from '@campaign/lens';
import { TenantService } from '@campaign/lens';
import { useServiceDatabase } from '../support/service-database.js';

/** The credits ledger against real PostgreSQL, no services: balance rules and concurrency. */
const orm = useServiceDatabase('lens');
const credits = new CreditsService();

async function tenantWith(balance: number): Promise<string> {
  const { tenantId } = await new TenantService().createTenantWithKey(orm().em.fork(), {
    name: `credits-${Math.random()}`,
    plan: 'default',
    permissions: ['*'],
    rateLimitPerMinute: 60,
    credits: balance,
    kind: 'rest',
  });
  return tenantId;
}

async function ledger(tenantId: string) {
  const rows = await orm()
    .em.fork()
    .execute<{ kind: string; amount: number; balance_after: string }[]>(
      'select kind, amount, balance_after from credit_ledger_entry where tenant_id = ? order by id',
      [tenantId],
    );
  return rows.map((r) => ({
    kind: r.kind,
    amount: Number(r.amount),
    after: Number(r.balance_after),
  }));
}

describe('credits', () => {
  it('reserve, then settle: release the reservation and charge what was delivered', async () => {
    const tenant = await tenantWith(10);
    const em = orm().em.fork();
    expect(await em.transactional((tx) => credits.reserve(tx, tenant, null, 6))).toBe(true);
    await em.transactional((tx) => credits.settle(tx, tenant, null, 6, 4));
    expect(await credits.balance(em, tenant)).toBe('6');
    expect(await ledger(tenant)).toEqual([
      { kind: 'TOP_UP', amount: 10, after: 10 },
      { kind: 'RESERVE', amount: -6, after: 4 },
      { kind: 'RELEASE', amount: 6, after: 10 },
      { kind: 'CHARGE', amount: -4, after: 6 },
    ]);
  });

  it('a reservation the balance cannot cover writes nothing', async () => {
    const tenant = await tenantWith(5);
    const em = orm().em.fork();
    expect(await em.transactional((tx) => credits.reserve(tx, tenant, null, 6))).toBe(false);
    expect(await credits.balance(em, tenant)).toBe('5');
    expect(await ledger(tenant)).toHaveLength(1);
  });

  it('50 concurrent reservations of 1 on a balance of 20: exactly 20 succeed, never below zero', async () => {
    const tenant = await tenantWith(20);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        orm()
          .em.fork()
          .transactional((tx) => credits.reserve(tx, tenant, null, 1)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(await credits.balance(orm().em.fork(), tenant)).toBe('0');
    const entries = await ledger(tenant);
    expect(entries.every((e) => e.after >= 0)).toBe(true);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
  });

  it('the ledger is append-only: the database refuses an update', async () => {
    const tenant = await tenantWith(1);
    await expect(
      orm()
        .em.fork()
        .execute('update credit_ledger_entry set amount = 100 where tenant_id = ?', [tenant]),
    ).rejects.toThrow();
  });
});
