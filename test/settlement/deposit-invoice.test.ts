import { describe, expect, it } from 'vitest';
import { graphql } from '../support/clients.js';
import * as f from './support.js';

/**
 * A deposit is booked against an invoice (issue 23 item 2): every PLATFORM_SETTLEMENT that
 * reaches ADVERTISER_PAID has exactly one advertiser invoice, made on the deposit when the admin
 * never asked for one, and the advertiser's mail names it and its total with VAT.
 */
describe('confirming a deposit without an advertiser invoice', () => {
  const ctx = f.useCast('INDIVIDUAL');

  const awaitingPayment = async () => {
    const id = await f.newSettlement(ctx.admin, {
      ...ctx.ids,
      price: f.INDIVIDUAL_AMOUNTS.campaignPrice,
    });
    await f.walkTo(ctx.admin, ctx.partner, id, 'AWAITING_ADVERTISER_PAYMENT');
    return id;
  };

  /** What the deposit must have left: one PAID invoice with VAT, its mail, its tax invoice asked. */
  async function expectBooked(id: string, invoice: Record<string, unknown> | null | undefined) {
    expect(invoice).toMatchObject({
      invoiceNumber: expect.stringMatching(/^INV-/),
      subtotal: '1000005.00',
      taxAmount: '100001.00',
      totalAmount: '1100006.00',
      status: 'PAID',
      paidAt: expect.any(String),
      bankName: expect.any(String),
      accountNumber: expect.any(String),
      taxInvoiceStatus: 'PENDING',
    });
    const rows = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from advertiser_invoice i join settlement s on s.advertiser_invoice_id = i.id
       where s.id = $1`,
      [id],
    );
    expect(rows[0]!.n).toBe(1);
    const outbox = await f.outboxOf(ctx.db, id);
    const confirmed = outbox.filter((r) => r.event === 'PAYMENT_CONFIRMED_ADVERTISER');
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]!.payload).toMatchObject({
      invoiceNumber: invoice!['invoiceNumber'],
      amount: '1100006.00',
    });
    expect(outbox.filter((r) => r.event === 'TAX_INVOICE_ISSUE_REQUEST')).toHaveLength(1);
    // Completing it does not make a second invoice.
    await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin));
    const done = await f.expectOk(f.call('POST', f.adminPath(id, '/complete'), ctx.admin));
    expect(done.advertiserInvoice?.['invoiceNumber']).toBe(invoice!['invoiceNumber']);
  }

  it('REST: PATCH status ADVERTISER_PAID makes the invoice, PAID, and the mail states the total with VAT', async () => {
    const id = await awaitingPayment();
    const paid = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'ADVERTISER_PAID' }),
    );
    expect(paid.status).toBe('ADVERTISER_PAID');
    await expectBooked(id, paid.advertiserInvoice);
  });

  it('GraphQL: changeSettlementStatus does the same', async () => {
    const id = await awaitingPayment();
    const result = await graphql<{ changeSettlementStatus: f.SettlementBody }>(
      `
        mutation ($id: ID!) {
          changeSettlementStatus(id: $id, input: { status: ADVERTISER_PAID }) {
            status
            advertiserInvoice {
              invoiceNumber
              subtotal
              taxAmount
              totalAmount
              status
              paidAt
              bankName
              accountNumber
              taxInvoiceStatus
            }
          }
        }
      `,
      { id },
      ctx.admin,
    );
    expect(result.errors).toBeUndefined();
    await expectBooked(id, result.data!.changeSettlementStatus.advertiserInvoice);
  });
});
