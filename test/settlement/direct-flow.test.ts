import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as f from './support.js';

/** DIRECT_INVOICE (spec section 3), type changes (S5) and the type-only actions. */
describe('DIRECT_INVOICE flow', () => {
  let admin: string;
  let db: Sql;
  let advertiserId: number;
  let individual: { id: number; token: string };
  let corporate: { id: number; token: string };

  beforeAll(async () => {
    admin = await f.adminToken();
    db = await f.database();
    advertiserId = await f.createAdvertiser(admin);
    ({ individual, corporate } = await f.individualAndCorporate(
      admin,
      { bankName: 'Toss Bank', accountNumber: '1000-2000-3000' },
      { commissionRate: '15' },
    ));
  });
  afterAll(() => db?.end());

  const direct = (partnerId: number) =>
    f.newSettlement(admin, { partnerId, advertiserId, settlementType: 'DIRECT_INVOICE' });

  it('partner: request, invoice-issued, invoice-paid completes at once', async () => {
    const campaignId = await f.createCampaign(admin, {
      partnerId: individual.id,
      advertiserId,
      settlementType: 'DIRECT_INVOICE',
      price: '2500000.00',
    });
    const id = await f.markUploaded(admin, campaignId);
    const created = await f.expectOk(f.call('GET', f.partnerPath(id), individual.token));
    expect(created).toMatchObject({
      settlementType: 'DIRECT_INVOICE',
      status: 'SETTLEMENT_PENDING',
      commissionRate: '0.00',
      commissionAmount: '0.00',
      settlementAmount: '2500000.00',
      withholdingTaxRate: '0.00',
      withholdingTaxAmount: '0.00',
      payoutAmount: '2500000.00',
    });

    const requested = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), individual.token),
    );
    expect(requested).toMatchObject({
      status: 'AWAITING_ADVERTISER_PAYMENT',
      reverseIssuance: null,
    });
    const outbox = await f.outboxOf(db, id);
    expect(outbox.map((r) => r.event)).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
      'DIRECT_SETTLEMENT_REQUEST',
    ]);
    expect(outbox[2]).toMatchObject({
      channel: 'EMAIL',
      recipient: expect.stringMatching(/^advertiser\d+@example\.com$/),
      payload: {
        amount: '2500000.00',
        bankName: 'Toss Bank',
        accountNumber: '1000-2000-3000',
        accountHolder: 'Test Holder',
      },
    });

    const issued = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/invoice-issued'), individual.token),
    );
    expect(issued.status).toBe('AWAITING_ADVERTISER_PAYMENT');
    expect(issued['invoiceIssuedAt']).toMatch(/^\d{4}-/);
    expect((await f.outboxOf(db, id)).at(-1)!.event).toBe('INVOICE_ISSUED_ADVERTISER');
    await f.expectError(f.call('POST', f.adminPath(id, '/invoice-issued'), admin), 409, 'CONFLICT');

    const paid = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/invoice-paid'), individual.token),
    );
    expect(paid).toMatchObject({
      status: 'SETTLEMENT_COMPLETED',
      invoicePaidAt: expect.any(String),
      completedAt: expect.any(String),
      partnerPayout: null,
    });
    const { campaign } = await graphqlOk<{ campaign: { status: string } }>(
      `query($id: ID!) { campaign(id: $id) { status } }`,
      { id: campaignId },
      admin,
    );
    expect(campaign.status).toBe('COMPLETED');
    expect((await f.outboxOf(db, id)).slice(-2).map((r) => r.event)).toEqual([
      'PAYMENT_CONFIRMED_ADVERTISER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    const audit = await f.auditOf(db, id);
    expect(audit.map((a) => a.action)).toEqual([
      'CREATED',
      'STATUS_CHANGED',
      'INVOICE_ISSUED',
      'STATUS_CHANGED',
    ]);
  });

  it('admin: invoice-issued and invoice-paid on the admin paths; a business partner skips reverse issuance', async () => {
    const id = await direct(corporate.id);
    const requested = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), corporate.token),
    );
    expect(requested.reverseIssuance).toBeNull();
    await f.expectOk(f.call('POST', f.adminPath(id, '/invoice-issued'), admin));
    const done = await f.expectOk(f.call('POST', f.adminPath(id, '/invoice-paid'), admin));
    expect(done.status).toBe('SETTLEMENT_COMPLETED');
  });

  it('invoice-paid completes only from AWAITING_ADVERTISER_PAYMENT', async () => {
    const id = await direct(individual.id);
    const error = await f.expectError(
      f.call('POST', f.partnerPath(id, '/invoice-paid'), individual.token),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(error.message).toContain('SETTLEMENT_PENDING');
  });

  it('PLATFORM_SETTLEMENT-only actions are a 409 SETTLEMENT_TYPE_MISMATCH on DIRECT_INVOICE', async () => {
    const id = await direct(individual.id);
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), individual.token));
    for (const [method, path, body] of [
      ['POST', '/retry-issuance', undefined],
      ['PATCH', '/status', { status: 'ADVERTISER_PAID' }],
      ['POST', '/start-payout', undefined],
      ['POST', '/complete', undefined],
    ] as const) {
      await f.expectError(
        f.call(method, f.adminPath(id, path), admin, body),
        409,
        'SETTLEMENT_TYPE_MISMATCH',
      );
    }
  });

  it('DIRECT_INVOICE-only actions are a 409 SETTLEMENT_TYPE_MISMATCH on PLATFORM_SETTLEMENT', async () => {
    const id = await f.newSettlement(admin, { partnerId: individual.id, advertiserId });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), individual.token));
    for (const path of ['/invoice-issued', '/invoice-paid']) {
      await f.expectError(
        f.call('POST', f.adminPath(id, path), admin),
        409,
        'SETTLEMENT_TYPE_MISMATCH',
      );
      await f.expectError(
        f.call('POST', f.partnerPath(id, path), individual.token),
        409,
        'SETTLEMENT_TYPE_MISMATCH',
      );
    }
  });
});

describe('type change (S5)', () => {
  let admin: string;
  let db: Sql;
  let advertiserId: number;
  let individual: { id: number; token: string };
  let corporate: { id: number; token: string };

  beforeAll(async () => {
    admin = await f.adminToken();
    db = await f.database();
    advertiserId = await f.createAdvertiser(admin);
    ({ individual, corporate } = await f.individualAndCorporate(admin));
  });
  afterAll(() => db?.end());

  it('PLATFORM_SETTLEMENT → DIRECT_INVOICE → back recalculates and stays SETTLEMENT_PENDING', async () => {
    const id = await f.newSettlement(admin, { partnerId: individual.id, advertiserId });
    const toDirect = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), admin, { settlementType: 'DIRECT_INVOICE' }),
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
      f.call('PATCH', f.adminPath(id, '/type'), admin, { settlementType: 'PLATFORM_SETTLEMENT' }),
    );
    expect(back).toMatchObject({
      settlementType: 'PLATFORM_SETTLEMENT',
      commissionRate: '30.00',
      commissionAmount: '300000.00',
      withholdingTaxRate: '3.30',
      withholdingTaxAmount: '23100.00',
      payoutAmount: '676900.00',
    });
    const audit = await db.query(
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
      admin,
    );
    expect(campaign.settlementType).toBe('PLATFORM_SETTLEMENT');
  });

  it('from AWAITING_ADVERTISER_PAYMENT: back to SETTLEMENT_PENDING, the DRAFT invoice and open reverse issuance withdrawn', async () => {
    const id = await f.newSettlement(admin, { partnerId: corporate.id, advertiserId });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), corporate.token));
    const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), admin));
    const changed = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), admin, {
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
    const invoice = await db.query('select status from advertiser_invoice where id = $1', [
      issued.advertiserInvoiceId,
    ]);
    expect(invoice[0]!['status']).toBe('CANCELLED');
    expect((await f.outboxOf(db, id)).slice(-2).map((r) => r.event)).toEqual([
      'SETTLEMENT_STATUS_CHANGED',
      'TAX_INVOICE_REVERSE_CANCEL_REQUEST',
    ]);

    // Back to PLATFORM_SETTLEMENT and a new request: a new issuance key.
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), admin, { settlementType: 'PLATFORM_SETTLEMENT' }),
    );
    const again = await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), corporate.token));
    expect(again.reverseIssuance).toMatchObject({ status: 'PENDING', issuanceKey: `${id}-R2` });
  });

  it('is a 409 once money moved, once the advertiser invoice is issued, or for the same type', async () => {
    const paid = await f.newSettlement(admin, { partnerId: individual.id, advertiserId });
    await f.walkTo(admin, individual.token, paid, 'ADVERTISER_PAID');
    await f.expectError(
      f.call('PATCH', f.adminPath(paid, '/type'), admin, { settlementType: 'DIRECT_INVOICE' }),
      409,
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );

    const issued = await f.newSettlement(admin, { partnerId: individual.id, advertiserId });
    const withInvoice = await f.expectOk(
      f.call('POST', f.adminPath(issued, '/retry-issuance'), admin),
    );
    // The provider (a later issue) marks the invoice ISSUED; here the database stands in for it.
    await db.query(`update advertiser_invoice set status = 'ISSUED' where id = $1`, [
      withInvoice.advertiserInvoiceId,
    ]);
    await f.expectError(
      f.call('PATCH', f.adminPath(issued, '/type'), admin, { settlementType: 'DIRECT_INVOICE' }),
      409,
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );

    const directIssued = await f.newSettlement(admin, {
      partnerId: individual.id,
      advertiserId,
      settlementType: 'DIRECT_INVOICE',
    });
    await f.expectOk(f.call('POST', f.adminPath(directIssued, '/invoice-issued'), admin));
    await f.expectError(
      f.call('PATCH', f.adminPath(directIssued, '/type'), admin, {
        settlementType: 'PLATFORM_SETTLEMENT',
      }),
      409,
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );

    await f.expectError(
      f.call('PATCH', f.adminPath(directIssued, '/type'), admin, {
        settlementType: 'DIRECT_INVOICE',
      }),
      409,
      'CONFLICT',
    );
  });
});
