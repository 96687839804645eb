import { describe, expect, it } from 'vitest';
import { graphqlOk, stack } from '../support/clients.js';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * Issue 23 item 1: a cancelled settlement never keeps a live tax invoice. An issued one is
 * annulled by a cancellation tax invoice from the same provider (stored on the invoice, e-mailed
 * to the advertiser, posted to the team); a request still pending is withdrawn. Through REST
 * and GraphQL against the simulated provider (`instant_` decides in its answer, `manual_`
 * never decides by itself).
 */
const TAX_INVOICE_NUMBER = /^\d{8}-41000000-\d{8}$/;

const CANCELLATION_FIELDS = `advertiserInvoice { status taxInvoiceNumber taxInvoiceStatus
  cancellationTaxInvoiceNumber cancellationTaxInvoiceStatus cancellationTaxInvoiceIssuedAt }`;

const providerCall = async (method: string, path: string) => {
  const response = await fetch(`${stack().taxInvoice}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
  return { status: response.status, body: (await response.json()) as t.Doc };
};

describe('cancellation tax invoice', () => {
  const ctx = f.useAdmin();

  /** A settlement whose advertiser invoice was asked for at a provider scenario. */
  async function askedFor(prefix: string) {
    const { partnerId } = await f.partnerAndAdvertiser(ctx.admin, 'INDIVIDUAL');
    const advertiser = await t.advertiser(ctx.admin, prefix);
    const id = await f.newSettlement(ctx.admin, { partnerId, advertiserId: advertiser.id });
    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    return { id, advertiser, key: String(t.invoiceOf(asked)['taxInvoiceIssuanceKey']) };
  }

  it('REST cancel of an issued invoice: annulled by a cancellation tax invoice, never deleted', async () => {
    const { id, advertiser, key } = await askedFor('instant_');
    const issued = await t.untilInvoice(ctx.admin, id, 'SUCCESS');
    const number = String(t.invoiceOf(issued)['taxInvoiceNumber']);
    expect(number).toMatch(TAX_INVOICE_NUMBER);

    const cancelled = await f.expectOk(
      f.call('POST', f.adminPath(id, '/cancel'), ctx.admin, { reason: 'campaign withdrawn' }),
    );
    expect(cancelled.status).toBe('SETTLEMENT_CANCELLED');
    const annulled = await t.waitFor(
      'the cancellation tax invoice',
      () => t.detail(ctx.admin, id),
      (s) => t.invoiceOf(s)['cancellationTaxInvoiceStatus'] === 'SUCCESS',
    );
    const invoice = t.invoiceOf(annulled);
    expect(invoice).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceNumber: number,
      taxInvoiceStatus: 'SUCCESS',
      cancellationTaxInvoiceIssuanceKey: `${String(invoice['invoiceNumber'])}-C1`,
    });
    expect(invoice['cancellationTaxInvoiceNumber']).toMatch(TAX_INVOICE_NUMBER);
    expect(invoice['cancellationTaxInvoiceNumber']).not.toBe(number);
    expect(Date.parse(String(invoice['cancellationTaxInvoiceIssuedAt']))).not.toBeNaN();

    // The provider still holds the original, issued, annulled by that key; deleting is refused.
    expect(await t.atProvider(key)).toMatchObject({
      status: 'SUCCESS',
      cancelledBy: invoice['cancellationTaxInvoiceIssuanceKey'],
    });
    expect(await providerCall('POST', `/v1/issuances/${key}/cancel`)).toMatchObject({
      status: 409,
      body: { error: { code: 'NOT_CANCELLABLE' } },
    });

    const [mail] = await t.mailTo(advertiser.email, 'INVOICE_CANCELLED_ADVERTISER');
    expect(mail!['text']).toContain(number);
    expect(mail!['text']).toContain(String(invoice['cancellationTaxInvoiceNumber']));
    const [chat] = await t.chatOf(id, 'TAX_INVOICE_CANCELLED');
    expect(chat!['text']).toContain(String(invoice['cancellationTaxInvoiceNumber']));

    const { settlement } = await graphqlOk<{ settlement: { advertiserInvoice: t.Doc } }>(
      `query($id: ID!) { settlement(id: $id) { ${CANCELLATION_FIELDS} } }`,
      { id },
      ctx.admin,
    );
    expect(settlement.advertiserInvoice).toEqual({
      status: 'CANCELLED',
      taxInvoiceNumber: number,
      taxInvoiceStatus: 'SUCCESS',
      cancellationTaxInvoiceNumber: invoice['cancellationTaxInvoiceNumber'],
      cancellationTaxInvoiceStatus: 'SUCCESS',
      cancellationTaxInvoiceIssuedAt: invoice['cancellationTaxInvoiceIssuedAt'],
    });
    const events = await t.eventsOf(ctx.db, id);
    expect(t.count(events, 'TAX_INVOICE_CANCELLATION_REQUEST')).toBe(1);
    expect(t.count(events, 'INVOICE_CANCELLED_ADVERTISER')).toBe(1);
  });

  it('GraphQL cancel while the request is pending: withdrawn at the provider, nothing issued', async () => {
    const { id, advertiser, key } = await askedFor('manual_');
    await t.waitFor(
      'the request at the provider',
      () => t.atProvider(key),
      (issuance) => issuance['status'] === 'PENDING',
    );
    const { cancelSettlement } = await graphqlOk<{ cancelSettlement: { status: string } }>(
      `mutation($id: ID!) { cancelSettlement(id: $id, input: { reason: "no longer wanted" }) {
        status } }`,
      { id },
      ctx.admin,
    );
    expect(cancelSettlement.status).toBe('SETTLEMENT_CANCELLED');
    const withdrawn = await t.untilInvoice(ctx.admin, id, 'CANCELLED');
    expect(t.invoiceOf(withdrawn)).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceNumber: null,
      cancellationTaxInvoiceStatus: null,
    });
    expect(await t.atProvider(key)).toMatchObject({ status: 'CANCELLED', cancelledBy: null });
    const events = await t.eventsOf(ctx.db, id);
    expect(events).toContain('TAX_INVOICE_FORWARD_WITHDRAW_REQUEST');
    expect(events).not.toContain('TAX_INVOICE_FAILED');
    expect(events).not.toContain('INVOICE_CANCELLED_ADVERTISER');
    const mails = await fetch(`${stack().mailSink}/messages?to=${advertiser.email}`);
    const sent = ((await mails.json()) as t.Doc[]).map(
      (m) => (m['headers'] as Record<string, string>)['x-event'],
    );
    expect(sent).not.toContain('INVOICE_CANCELLED_ADVERTISER');
  });

  it('a type change withdraws the pending request of the DRAFT invoice it cancels', async () => {
    const { id, key } = await askedFor('manual_');
    await t.waitFor(
      'the request at the provider',
      () => t.atProvider(key),
      (issuance) => issuance['status'] === 'PENDING',
    );
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, { settlementType: 'DIRECT_INVOICE' }),
    );
    await t.waitFor(
      'the withdrawal',
      () => t.atProvider(key),
      (issuance) => issuance['status'] === 'CANCELLED',
    );
    expect(await t.eventsOf(ctx.db, id)).toContain('TAX_INVOICE_FORWARD_WITHDRAW_REQUEST');
  });
});
