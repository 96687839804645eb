import { describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as f from './support.js';

/** Changing a settlement's type (S5): recalculated, withdrawn documents, refused once money moved. */
describe('type change (S5)', () => {
  const ctx = f.useTwoPartners();

  it('PLATFORM_SETTLEMENT → DIRECT_INVOICE → back recalculates and stays SETTLEMENT_PENDING', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: ctx.individual.id,
      advertiserId: ctx.advertiserId,
    });
    const toDirect = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, { settlementType: 'DIRECT_INVOICE' }),
    );
    expect(toDirect).toMatchObject({
      settlementType: 'DIRECT_INVOICE',
      status: 'SETTLEMENT_PENDING',
      commissionRate: '0.00',
      commissionAmount: '0.00',
      withholdingTaxRate: '0.00',
      payoutAmount: '1000000.00',
    });
    const back = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, {
        settlementType: 'PLATFORM_SETTLEMENT',
      }),
    );
    expect(back).toMatchObject({
      settlementType: 'PLATFORM_SETTLEMENT',
      commissionRate: '30.00',
      commissionAmount: '300000.00',
      withholdingTaxRate: '3.30',
      withholdingTaxAmount: '23100.00',
      payoutAmount: '676900.00',
    });
    const audit = await ctx.db.query(
      `select from_settlement_type, to_settlement_type, details from settlement_audit
       where settlement_id = $1 and action = 'TYPE_CHANGED' order by id`,
      [id],
    );
    expect(audit.map((r) => [r['from_settlement_type'], r['to_settlement_type']])).toEqual([
      ['PLATFORM_SETTLEMENT', 'DIRECT_INVOICE'],
      ['DIRECT_INVOICE', 'PLATFORM_SETTLEMENT'],
    ]);
    expect(audit[0]!['details']).toMatchObject({
      before: { commissionAmount: '300000.00' },
      after: { commissionAmount: '0.00' },
    });
    const { campaign } = await graphqlOk<{ campaign: { settlementType: string } }>(
      `query($id: ID!) { campaign(id: $id) { settlementType } }`,
      { id: toDirect['campaignId'] },
      ctx.admin,
    );
    expect(campaign.settlementType).toBe('PLATFORM_SETTLEMENT');
  });

  it('from AWAITING_ADVERTISER_PAYMENT: back to SETTLEMENT_PENDING, the DRAFT invoice and open reverse issuance withdrawn', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: ctx.corporate.id,
      advertiserId: ctx.advertiserId,
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), ctx.corporate.token));
    const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const changed = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, {
        settlementType: 'DIRECT_INVOICE',
        reason: 'advertiser pays the partner',
      }),
    );
    expect(changed).toMatchObject({
      status: 'SETTLEMENT_PENDING',
      settlementType: 'DIRECT_INVOICE',
      requestedAt: null,
      advertiserInvoiceId: null,
      reverseIssuance: { status: 'CANCELLED' },
    });
    const invoice = await ctx.db.query('select status from advertiser_invoice where id = $1', [
      issued.advertiserInvoiceId,
    ]);
    expect(invoice[0]!['status']).toBe('CANCELLED');
    expect((await f.outboxOf(ctx.db, id)).slice(-3).map((r) => r.event)).toEqual([
      'SETTLEMENT_STATUS_CHANGED',
      'TAX_INVOICE_REVERSE_CANCEL_REQUEST',
      // The DRAFT invoice's pending request is withdrawn at the provider (issue 23).
      'TAX_INVOICE_FORWARD_WITHDRAW_REQUEST',
    ]);

    // Back to PLATFORM_SETTLEMENT and a new request: a new issuance key.
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, {
        settlementType: 'PLATFORM_SETTLEMENT',
      }),
    );
    const again = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), ctx.corporate.token),
    );
    expect(again.reverseIssuance).toMatchObject({ status: 'PENDING', issuanceKey: `${id}-R2` });
  });

  it('is a 409 once money moved, once the advertiser invoice is issued, or for the same type', async () => {
    const paid = await f.newSettlement(ctx.admin, {
      partnerId: ctx.individual.id,
      advertiserId: ctx.advertiserId,
    });
    await f.walkTo(ctx.admin, ctx.individual.token, paid, 'ADVERTISER_PAID');
    await f.expectError(
      f.call('PATCH', f.adminPath(paid, '/type'), ctx.admin, { settlementType: 'DIRECT_INVOICE' }),
      409,
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );

    const issued = await f.newSettlement(ctx.admin, {
      partnerId: ctx.individual.id,
      advertiserId: ctx.advertiserId,
    });
    const withInvoice = await f.expectOk(
      f.call('POST', f.adminPath(issued, '/retry-issuance'), ctx.admin),
    );
    // The provider (a later issue) marks the invoice ISSUED; here the database stands in for it.
    await ctx.db.query(`update advertiser_invoice set status = 'ISSUED' where id = $1`, [
      withInvoice.advertiserInvoiceId,
    ]);
    await f.expectError(
      f.call('PATCH', f.adminPath(issued, '/type'), ctx.admin, {
        settlementType: 'DIRECT_INVOICE',
      }),
      409,
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );

    const directIssued = await f.newSettlement(ctx.admin, {
      partnerId: ctx.individual.id,
      advertiserId: ctx.advertiserId,
      settlementType: 'DIRECT_INVOICE',
    });
    await f.expectOk(f.call('POST', f.adminPath(directIssued, '/invoice-issued'), ctx.admin));
    await f.expectError(
      f.call('PATCH', f.adminPath(directIssued, '/type'), ctx.admin, {
        settlementType: 'PLATFORM_SETTLEMENT',
      }),
      409,
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );

    await f.expectError(
      f.call('PATCH', f.adminPath(directIssued, '/type'), ctx.admin, {
        settlementType: 'DIRECT_INVOICE',
      }),
      409,
      'CONFLICT',
    );
  });
});
