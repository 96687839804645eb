import { describe, expect, it } from 'vitest';
import { graphql } from '../support/clients.js';
import * as f from './support.js';

/** Concurrency (DESIGN S2, S7, S13): one settlement per campaign, one winner per move, numbers. */
describe('concurrency', () => {
  const ctx = f.useCast('INDIVIDUAL');

  it('10 concurrent markCampaignUploaded calls create one settlement', async () => {
    const campaignId = await f.createCampaign(ctx.admin, ctx.ids);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        graphql<{ markCampaignUploaded: { status: string; settlement: { id: string } } }>(
          `
            mutation ($id: ID!) {
              markCampaignUploaded(id: $id) {
                status
                settlement {
                  id
                }
              }
            }
          `,
          { id: campaignId },
          ctx.admin,
        ),
      ),
    );
    for (const result of results) expect(result.errors).toBeUndefined();
    const ids = new Set(results.map((r) => r.data!.markCampaignUploaded.settlement.id));
    expect(ids.size).toBe(1);
    const rows = await ctx.db.query(
      `select count(*)::int as n from settlement where campaign_id = $1`,
      [campaignId],
    );
    expect(rows[0]!['n']).toBe(1);
    const audit = await f.auditOf(ctx.db, [...ids][0]!);
    expect(audit.filter((a) => a.action === 'CREATED')).toHaveLength(1);
  });

  it.each([
    ['PATCH status ADVERTISER_PAID', 'PATCH', '/status', { status: 'ADVERTISER_PAID' }],
    ['POST cancel', 'POST', '/cancel', undefined],
  ] as const)(
    '10 concurrent %s on one version: exactly one wins, the others get CONCURRENT_MODIFICATION',
    async (_label, method, path, body) => {
      const id = await f.newSettlement(ctx.admin, ctx.ids);
      await f.walkTo(ctx.admin, ctx.partner, id, 'AWAITING_ADVERTISER_PAYMENT');
      const auditBefore = (await f.auditOf(ctx.db, id)).length;
      const outboxBefore = (await f.outboxOf(ctx.db, id)).length;
      const results = await f.whileRowHeld(ctx.db, id, 10, () =>
        Array.from({ length: 10 }, () => f.call(method, f.adminPath(id, path), ctx.admin, body)),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const result of results.filter((r) => r.status !== 200)) {
        expect(result.status).toBe(409);
        expect(result.body.error).toMatchObject({
          code: 'CONCURRENT_MODIFICATION',
          retryable: true,
        });
      }
      expect((await f.auditOf(ctx.db, id)).length).toBe(auditBefore + 1);
      const events = (await f.outboxOf(ctx.db, id)).slice(outboxBefore).map((r) => r.event);
      expect(events.filter((e) => e === 'SETTLEMENT_STATUS_CHANGED')).toHaveLength(1);
      // A request that reads after the winner committed gets the answer for the new status.
      await f.expectError(
        f.call(method, f.adminPath(id, path), ctx.admin, body),
        409,
        'INVALID_STATUS_TRANSITION',
      );
    },
  );

  it('concurrent retry-issuance on one settlement creates one invoice', async () => {
    const id = await f.newSettlement(ctx.admin, ctx.ids);
    const results = await f.whileRowHeld(ctx.db, id, 6, () =>
      Array.from({ length: 6 }, () =>
        f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.body.error.code).toBe('CONCURRENT_MODIFICATION');
    }
    const rows = await ctx.db.query(
      `select count(*)::int as n from advertiser_invoice where id in
         (select advertiser_invoice_id from settlement where id = $1)`,
      [id],
    );
    expect(rows[0]!['n']).toBe(1);
    const events = (await f.outboxOf(ctx.db, id)).map((r) => r.event);
    expect(events.filter((e) => e === 'PAYMENT_REQUEST_ADVERTISER')).toHaveLength(1);
  });

  async function assertGapless(prefix: 'INV' | 'PAY', numbers: string[]) {
    const month = numbers[0]!.slice(0, 12); // e.g. INV-2026-11-
    expect(numbers.every((n) => n.startsWith(month))).toBe(true);
    const table = prefix === 'INV' ? 'advertiser_invoice' : 'partner_payout';
    const column = prefix === 'INV' ? 'invoice_number' : 'payout_number';
    // One statement, one snapshot: the numbers and the counter as committed together.
    const [row] = await ctx.db.query<{ numbers: string[]; counter: number }>(
      `select (select array_agg(${column}) from ${table} where ${column} like $1) as numbers,
              (select last_value from document_counter where prefix = $2 and year_month = $3)
                as counter`,
      [`${month}%`, prefix, month.slice(4, 11)],
    );
    const sequences = row!.numbers.map((n) => Number(n.slice(12))).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
    expect(row!.counter).toBe(sequences.length);
  }

  it('10 concurrent retry-issuance on 10 settlements: 10 distinct, gapless INV numbers', async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, () => f.newSettlement(ctx.admin, ctx.ids)),
    );
    const results = await Promise.all(
      ids.map((id) => f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin))),
    );
    const numbers = results.map((r) => r.advertiserInvoice!['invoiceNumber'] as string);
    expect(new Set(numbers).size).toBe(10);
    await assertGapless('INV', numbers);
  });

  it('10 concurrent start-payout on 10 settlements: 10 distinct, gapless PAY numbers', async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const id = await f.newSettlement(ctx.admin, ctx.ids);
        await f.walkTo(ctx.admin, ctx.partner, id, 'ADVERTISER_PAID');
        return id;
      }),
    );
    const results = await Promise.all(
      ids.map((id) => f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin))),
    );
    const numbers = results.map((r) => r.partnerPayout!['payoutNumber'] as string);
    expect(new Set(numbers).size).toBe(10);
    await assertGapless('PAY', numbers);
  });
});
