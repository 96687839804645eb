import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { graphqlOk, rest } from '../support/clients.js';
import type { LensBody } from './lens-client.js';
import {
  profile,
  tenantIdOf,
  tenantState,
  useLensDatabase,
  waitForStatus,
} from './engine-support.js';

describe('credits under concurrency and their ledger (DESIGN.md L3)', () => {
  const sql = useLensDatabase();
  let poor: string;
  let rich: string;

  beforeAll(async () => {
    [poor, rich] = await Promise.all([
      cli('lens:create-key', '--credits', '50', '--rate-limit', '1000'),
      cli('lens:create-key', '--credits', '500', '--rate-limit', '1000'),
    ]);
  });

  it('200 concurrent calls on 50 credits: exactly 50 succeed, 150 are 402, balance 0 = ledger sum', async () => {
    const tenantId = await tenantIdOf(sql(), poor);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        profile(poor, { accountRef: { handle: `crowd.${i}` } }, randomUUID()),
      ),
    );
    const statuses = results.map((r) => r.status);
    const accepted = results.filter((r) => r.status === 200 || r.status === 202);
    expect(accepted, JSON.stringify(statuses)).toHaveLength(50);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(150);
    for (const r of refused) expect(r.body.error?.code).toBe('INSUFFICIENT_CREDITS');
    for (const r of accepted) {
      if (r.body.data!.status === 'RUNNING')
        await waitForStatus(poor, r.body.data!.operationId, 'SUCCEEDED');
    }
    const state = await tenantState(sql(), tenantId);
    expect(state).toMatchObject({ balance: 0, ledgerSum: 0, operations: 50, negativeBalances: 0 });
    // TOP_UP, then RESERVE, RELEASE and CHARGE for each of the 50.
    expect(state.ledgerEntries).toBe(1 + 50 * 3);
    const [terminal] = await sql().query<{ n: number }>(
      `select count(*)::int as n from operation where tenant_id = $1 and status = 'SUCCEEDED'
         and credits_reserved = credits_charged + credits_refunded`,
      [tenantId],
    );
    expect(terminal!.n).toBe(50);
    expect(await cli('lens:credits', poor)).toBe('0');
  });

  it('a list reserves its upper bound, charges what it delivered and refunds the rest', async () => {
    const tenantId = await tenantIdOf(sql(), rich);
    const before = await tenantState(sql(), tenantId);
    const result = await rest<LensBody<{ items: unknown[] }>>(
      'POST',
      '/api/lens/v1/accounts/search',
      { token: rich, body: { search: 'minji' }, headers: { 'idempotency-key': randomUUID() } },
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const envelope = result.body.data!;
    const delivered = envelope.data!.items.length;
    // accounts.search: base 1 + 1 per result, reserved for its maximum of 50 results.
    expect(envelope.credits).toEqual({
      reserved: 51,
      charged: 1 + delivered,
      refunded: 50 - delivered,
    });
    const after = await tenantState(sql(), tenantId);
    expect(before.balance - after.balance).toBe(envelope.credits.charged);
    expect(after.ledgerSum).toBe(after.balance);
    const rows = await sql().query<{ kind: string; amount: string }>(
      'select kind, amount from credit_ledger_entry where operation_id = $1 order by id',
      [envelope.operationId],
    );
    expect(rows.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ['RESERVE', -51],
      ['RELEASE', 51],
      ['CHARGE', -(1 + delivered)],
    ]);
  });

  it('the ledger is append-only: the database refuses updates and deletes', async () => {
    await expect(sql().query('update credit_ledger_entry set amount = 0')).rejects.toThrow(
      /append-only/,
    );
    await expect(sql().query('delete from credit_ledger_entry')).rejects.toThrow(/append-only/);
  });

  it('GraphQL: the balance and the ledger, paged, newest first', async () => {
    const tenantId = await tenantIdOf(sql(), rich);
    const state = await tenantState(sql(), tenantId);
    const first = await graphqlOk<{
      creditBalance: number;
      creditLedger: {
        items: { id: string; kind: string; amount: number; balanceAfter: number }[];
        nextCursor: string | null;
      };
    }>(
      `{ creditBalance creditLedger(first: 2) { items { id kind amount balanceAfter operationId createdAt } nextCursor } }`,
      {},
      rich,
    );
    expect(first.creditBalance).toBe(state.balance);
    expect(first.creditLedger.items).toHaveLength(2);
    expect(first.creditLedger.items[0]!.balanceAfter).toBe(state.balance);
    const ids: string[] = first.creditLedger.items.map((e) => e.id);
    let after = first.creditLedger.nextCursor;
    while (after) {
      const next = await graphqlOk<{
        creditLedger: { items: { id: string }[]; nextCursor: string | null };
      }>(
        `query($after: String) { creditLedger(first: 2, after: $after) { items { id } nextCursor } }`,
        { after },
        rich,
      );
      ids.push(...next.creditLedger.items.map((e) => e.id));
      after = next.creditLedger.nextCursor;
    }
    expect(ids).toHaveLength(state.ledgerEntries);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
