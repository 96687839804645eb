import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_SECRETS, SUBGRAPH_SECRET_HEADER } from '@campaign/platform';
import { freePort, type ServiceProcess } from '@campaign/stack';
import { startBeside } from '../support/beside.js';
import { graphql } from '../support/clients.js';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * Due dates and OVERDUE (issue 23 item 4): an issued invoice is due INVOICE_DUE_DAYS (14 by
 * default; here a few seconds, as a fraction of a day) after its issue; the sweep (every second in
 * the test stack) moves it past due to OVERDUE once, mails the advertiser and posts to the
 * settlement's thread; a deposit then makes it PAID. Nothing is moved by SQL: the time passes.
 */
/** The due period of the replica that issues these invoices: seconds, not days. */
const DUE_SECONDS = 3;

describe('invoice due dates and OVERDUE', () => {
  const ctx = f.useAdmin();
  let replica: ServiceProcess;
  let replicaUrl: string;

  // A settlement subgraph beside the shared one, due period INVOICE_DUE_DAYS = 3 s: the invoices
  // it issues fall due while the test watches (the shared stack keeps the default 14 days).
  beforeAll(async () => {
    const port = await freePort();
    replicaUrl = `http://127.0.0.1:${port}/graphql`;
    replica = await startBeside('settlement', 'settlement subgraph (due in seconds)', port, {
      INVOICE_DUE_DAYS: String(DUE_SECONDS / 86_400),
      INVOICE_OVERDUE_SWEEP_SECONDS: '1',
    });
  });
  afterAll(() => replica?.stop());

  /**
   * A settlement whose advertiser invoice is issued by the replica: the provider holds the
   * request open (`manual_`), and its success is delivered, signed, to the replica.
   */
  async function issued() {
    const buyer = await t.advertiser(ctx.admin, 'manual_');
    const partnerId = await f.createPartner(ctx.admin, 'INDIVIDUAL');
    const id = await f.newSettlement(ctx.admin, { partnerId, advertiserId: buyer.id });
    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const key = String(t.invoiceOf(asked)['taxInvoiceIssuanceKey']);
    await t.waitFor(
      'the request at the provider',
      () => t.atProvider(key),
      (i) => i['status'] === 'PENDING',
    );
    const rawBody = JSON.stringify(t.resultEvent(key, 'FORWARD', 'SUCCESS'));
    const response = await fetch(replicaUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SUBGRAPH_SECRET_HEADER]: DEVELOPMENT_SECRETS.subgraph,
      },
      body: JSON.stringify({
        query: `mutation($rawBody: String!, $signature: String) {
          applyTaxInvoiceWebhook(rawBody: $rawBody, signature: $signature) { applied } }`,
        variables: { rawBody, signature: t.sign(rawBody) },
      }),
    });
    const answer = (await response.json()) as {
      data?: { applyTaxInvoiceWebhook: { applied: boolean } };
    };
    expect(answer.data?.applyTaxInvoiceWebhook.applied, JSON.stringify(answer)).toBe(true);
    return { id, buyer, invoice: t.invoiceOf(await t.detail(ctx.admin, id)) };
  }

  it('REST: dueDate is INVOICE_DUE_DAYS after the issue; past due, OVERDUE once with its mail and chat; a deposit makes it PAID', async () => {
    const { id, buyer, invoice } = await issued();
    expect(invoice['status']).toBe('ISSUED');
    const dueIn =
      Date.parse(String(invoice['dueDate'])) - Date.parse(String(invoice['taxInvoiceIssuedAt']));
    expect(dueIn).toBe(DUE_SECONDS * 1000);

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
    const { id } = await issued();
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
