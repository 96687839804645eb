import { describe, expect, it } from 'vitest';
import { graphql } from '../support/clients.js';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * Due dates and OVERDUE (issue 23 item 4): an issued invoice is due INVOICE_DUE_DAYS (14) after
 * its issue; the sweep (every second in the test stack) moves it past due to OVERDUE once, mails
 * the advertiser and posts to the settlement's thread; a deposit then makes it PAID.
 */
describe('invoice due dates and OVERDUE', () => {
  const ctx = f.useAdmin();

  /** A settlement whose advertiser invoice the provider issued (an `instant_` advertiser). */
  async function issued() {
    const buyer = await t.advertiser(ctx.admin, 'instant_');
    const partnerId = await f.createPartner(ctx.admin, 'INDIVIDUAL');
    const id = await f.newSettlement(ctx.admin, { partnerId, advertiserId: buyer.id });
    await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const detail = await t.untilInvoice(ctx.admin, id, 'SUCCESS');
    return { id, buyer, invoice: t.invoiceOf(detail) };
  }

  /** Makes the invoice due a moment ago (a due period of days, not waited for). */
  const pastDue = (invoiceNumber: unknown) =>
    ctx.db.query(
      `update advertiser_invoice set due_date = now() - interval '1 second' where invoice_number = $1`,
      [invoiceNumber],
    );

  it('REST: dueDate is 14 days after the issue; past due, OVERDUE once with its mail and chat; a deposit makes it PAID', async () => {
    const { id, buyer, invoice } = await issued();
    expect(invoice['status']).toBe('ISSUED');
    const dueIn =
      Date.parse(String(invoice['dueDate'])) - Date.parse(String(invoice['taxInvoiceIssuedAt']));
    expect(dueIn).toBe(14 * 86_400_000);

    await pastDue(invoice['invoiceNumber']);
    const overdue = await t.waitFor(
      `invoice of ${id} OVERDUE`,
      () => t.detail(ctx.admin, id),
      (s) => t.invoiceOf(s)['status'] === 'OVERDUE',
    );
    expect(overdue.status).toBe('AWAITING_ADVERTISER_PAYMENT');
    const [mail] = await t.mailTo(buyer.email, 'PAYMENT_OVERDUE_ADVERTISER');
    expect(String(mail!['subject'])).toContain(String(invoice['invoiceNumber']));
    const [chat] = await t.chatOf(id, 'INVOICE_OVERDUE');
    expect(String(chat!['text'])).toContain(String(invoice['invoiceNumber']));
    // Once: later sweeps find it OVERDUE and write nothing more.
    const events = await t.eventsOf(ctx.db, id);
    expect(t.count(events, 'PAYMENT_OVERDUE_ADVERTISER')).toBe(1);
    expect(t.count(events, 'INVOICE_OVERDUE')).toBe(1);

    const paid = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'ADVERTISER_PAID' }),
    );
    expect(t.invoiceOf(paid)).toMatchObject({ status: 'PAID', paidAt: expect.any(String) });
  });

  it('GraphQL: the invoice reads OVERDUE with its dueDate, and changeSettlementStatus pays it', async () => {
    const { id, invoice } = await issued();
    await pastDue(invoice['invoiceNumber']);
    const read = () =>
      graphql<{ settlement: { advertiserInvoice: { status: string; dueDate: string } } }>(
        `
          query ($id: ID!) {
            settlement(id: $id) {
              advertiserInvoice {
                status
                dueDate
              }
            }
          }
        `,
        { id },
        ctx.admin,
      );
    const overdue = await t.waitFor(
      'OVERDUE by GraphQL',
      read,
      (r) => r.data?.settlement.advertiserInvoice.status === 'OVERDUE',
    );
    expect(overdue.data!.settlement.advertiserInvoice.dueDate).toEqual(expect.any(String));
    const paid = await graphql<{
      changeSettlementStatus: { advertiserInvoice: { status: string } };
    }>(
      `
        mutation ($id: ID!) {
          changeSettlementStatus(id: $id, input: { status: ADVERTISER_PAID }) {
            advertiserInvoice {
              status
            }
          }
        }
      `,
      { id },
      ctx.admin,
    );
    expect(paid.errors).toBeUndefined();
    expect(paid.data!.changeSettlementStatus.advertiserInvoice.status).toBe('PAID');
  });
});
