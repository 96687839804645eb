import { describe, expect, it } from 'vitest';
import { stack } from '../support/clients.js';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * The tax-invoice provider end to end (DESIGN.md S11) against the simulated provider: forward
 * issuance by retry-issuance, reverse issuance by the partner's request, approval URLs, the
 * webhook, live status, and each scenario of the simulator. Every wait polls for the one
 * expected state with a bound; the simulator decides 1 s after a request in tests.
 */
describe('tax-invoice provider', () => {
  const ctx = f.useAdmin();

  const TAX_INVOICE_NUMBER = /^\d{8}-41000000-\d{8}$/;

  it('a business partner’s PLATFORM_SETTLEMENT from upload to completed, both tax invoices from the provider', async () => {
    const { id, partner, advertiser } = await t.scenarioSettlement(ctx.admin);

    // The request answers with the approval URL (asked inline), valid 10 minutes.
    const requested = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), partner.token),
    );
    const reverse = t.reverseOf(requested);
    expect(reverse).toMatchObject({ status: 'PENDING', issuanceKey: `${id}-R1` });
    expect(reverse['grantUrl']).toMatch(new RegExp(`^${stack().taxInvoice}/approve/`));
    const validFor = Date.parse(String(reverse['grantUrlExpiresAt'])) - Date.now();
    expect(validFor).toBeGreaterThan(9 * 60_000);
    expect(validFor).toBeLessThanOrEqual(10 * 60_000);
    // The page itself (200 while open) is checked with `manual_` partners in
    // reverse-issuance.test.ts: here the simulated partner decides 1 s after the request and the
    // page closes (410), so a fetch here would race the simulator.
    const approval = (await f.outboxOf(ctx.db, id)).filter(
      (r) => r.event === 'REVERSE_ISSUANCE_APPROVAL_PARTNER',
    );
    expect(approval).toHaveLength(1);
    expect(approval[0]).toMatchObject({
      recipient: partner.email,
      payload: { approvalUrl: reverse['grantUrl'], issuanceKey: `${id}-R1` },
    });

    // The simulated partner approves; the webhook brings the partner's tax invoice (S4).
    // The answer that first shows SUCCESS shows the result's whole transaction: a detail is one
    // statement, one snapshot (docs/decisions.md, "Detail answers and read skew").
    const approved = await t.untilReverse(ctx.admin, id, 'SUCCESS');
    expect(t.reverseOf(approved)).toMatchObject({ grantUrl: null, failureCode: null });
    expect(t.reverseOf(approved)['taxInvoiceNumber']).toMatch(TAX_INVOICE_NUMBER);
    expect(approved.partnerInvoiceReceivedAt).toEqual(expect.any(String));

    // The advertiser's tax invoice: issued by the provider, reported by webhook.
    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const invoiceNumber = String(t.invoiceOf(asked)['invoiceNumber']);
    expect(t.invoiceOf(asked)).toMatchObject({
      status: 'DRAFT',
      taxInvoiceStatus: 'PENDING',
      taxInvoiceIssuanceKey: `${invoiceNumber}-F1`,
    });
    const issued = t.invoiceOf(await t.untilInvoice(ctx.admin, id, 'SUCCESS'));
    expect(issued).toMatchObject({ status: 'ISSUED', taxInvoiceFailureCode: null });
    expect(issued['taxInvoiceNumber']).toMatch(TAX_INVOICE_NUMBER);
    expect(issued['taxInvoiceFileKey']).toBe(
      `${stack().taxInvoice}/documents/${issued['taxInvoiceNumber']}`,
    );
    expect(issued['taxInvoiceIssuedAt']).toEqual(expect.any(String));
    expect((await fetch(String(issued['taxInvoiceFileKey']))).status).toBe(200);
    expect(await t.atProvider(`${invoiceNumber}-F1`)).toMatchObject({
      kind: 'FORWARD',
      status: 'SUCCESS',
    });

    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'ADVERTISER_PAID' }),
    );
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin));
    expect(payingOut.partnerPayout).toMatchObject({
      status: 'INVOICE_RECEIVED',
      partnerInvoiceNumber: t.reverseOf(approved)['taxInvoiceNumber'],
      partnerInvoiceFileKey: t.reverseOf(approved)['documentUrl'],
    });
    const done = await f.expectOk(f.call('POST', f.adminPath(id, '/complete'), ctx.admin));
    expect(done.status).toBe('SETTLEMENT_COMPLETED');

    const events = await t.eventsOf(ctx.db, id);
    expect(t.count(events, 'INVOICE_ISSUED_ADVERTISER')).toBe(1);
    expect(t.count(events, 'REVERSE_ISSUANCE_APPROVAL_PARTNER')).toBe(1);
    expect(events).not.toContain('TAX_INVOICE_FAILED');
    expect(events).not.toContain('INVOICE_REQUEST_PARTNER');
    // Delivered by the outbox worker: the advertiser's and the partner's e-mails, once each.
    const [invoiceMail, ...moreInvoiceMails] = await t.mailTo(
      advertiser.email,
      'INVOICE_ISSUED_ADVERTISER',
    );
    expect(moreInvoiceMails).toEqual([]);
    expect(invoiceMail!['text']).toContain(String(issued['taxInvoiceNumber']));
    expect(invoiceMail!['text']).toContain(invoiceNumber);
    const [approvalMail] = await t.mailTo(partner.email, 'REVERSE_ISSUANCE_APPROVAL_PARTNER');
    expect(approvalMail!['text']).toContain(String(reverse['grantUrl']));
  });

  it('instant_: issued in the provider’s answer, SETTLEMENT_PENDING moves on; a retry after success is a 409', async () => {
    const { partnerId } = await f.partnerAndAdvertiser(ctx.admin, 'INDIVIDUAL');
    const advertiser = await t.advertiser(ctx.admin, 'instant_');
    const id = await f.newSettlement(ctx.admin, { partnerId, advertiserId: advertiser.id });
    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    expect(asked.status).toBe('SETTLEMENT_PENDING');
    const key = String(t.invoiceOf(asked)['taxInvoiceIssuanceKey']);

    const moved = await t.waitFor(
      'the success step',
      () => t.detail(ctx.admin, id),
      (s) => s.status === 'AWAITING_ADVERTISER_PAYMENT',
    );
    expect(t.invoiceOf(moved)).toMatchObject({ status: 'ISSUED', taxInvoiceStatus: 'SUCCESS' });
    await f.expectError(
      f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin),
      409,
      'CONFLICT',
    );
    const audit = (await f.auditOf(ctx.db, id)).map((a) => [a.action, a.to_status]);
    expect(audit.slice(-2)).toEqual([
      ['STATUS_CHANGED', 'AWAITING_ADVERTISER_PAYMENT'],
      ['TAX_INVOICE_ISSUED', 'AWAITING_ADVERTISER_PAYMENT'],
    ]);
    expect(await t.ledger(ctx.db, key)).toEqual([]); // answered, so never sent by webhook
  });

  it('instant_ partner: the reverse issuance is approved in the request’s own answer', async () => {
    const { requested } = await t.requestedBy(ctx.admin, 'instant_', 'INDIVIDUAL_BUSINESS');
    expect(t.reverseOf(requested)).toMatchObject({ status: 'SUCCESS', grantUrl: null });
    expect(requested.partnerInvoiceReceivedAt).toEqual(expect.any(String));
  });

  it('fail_: the failure stored on the invoice and alerted; retry-issuance asks again with a new key', async () => {
    const { partnerId } = await f.partnerAndAdvertiser(ctx.admin, 'INDIVIDUAL');
    const advertiser = await t.advertiser(ctx.admin, 'fail_');
    const id = await f.newSettlement(ctx.admin, { partnerId, advertiserId: advertiser.id });
    await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const failed = t.invoiceOf(await t.untilInvoice(ctx.admin, id, 'FAILURE'));
    expect(failed).toMatchObject({
      status: 'DRAFT',
      taxInvoiceFailureCode: 'NTS_REJECTED',
      taxInvoiceNumber: null,
    });
    expect(failed['taxInvoiceFailureMessage']).toEqual(expect.any(String));
    const alert = (await f.outboxOf(ctx.db, id)).filter((r) => r.event === 'TAX_INVOICE_FAILED');
    expect(alert).toHaveLength(1);
    expect(alert[0]).toMatchObject({
      channel: 'TEAM_CHAT',
      payload: {
        kind: 'FORWARD',
        failureCode: 'NTS_REJECTED',
        issuanceKey: failed['taxInvoiceIssuanceKey'],
        thread: id,
      },
    });

    const [message] = await t.chatOf(id, 'TAX_INVOICE_FAILED');
    expect(message!['text']).toContain('NTS_REJECTED');

    const again = t.invoiceOf(
      await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin)),
    );
    expect(again['taxInvoiceIssuanceKey']).toBe(
      String(failed['taxInvoiceIssuanceKey']).replace(/-F1$/, '-F2'),
    );
    expect(again).toMatchObject({ taxInvoiceStatus: 'PENDING', taxInvoiceFailureCode: null });
    await t.untilInvoice(ctx.admin, id, 'FAILURE');
    expect(t.count(await t.eventsOf(ctx.db, id), 'TAX_INVOICE_FAILED')).toBe(2);
  });

  it('fail_ partner: the reverse issuance fails by webhook, stored and alerted', async () => {
    const { id, partner, requested } = await t.requestedBy(ctx.admin, 'fail_');
    expect(t.reverseOf(requested)['grantUrl']).toEqual(expect.any(String));
    const failed = t.reverseOf(await t.untilReverse(ctx.admin, id, 'FAILURE'));
    expect(failed).toMatchObject({ failureCode: 'NTS_REJECTED', grantUrl: null });
    expect(t.count(await t.eventsOf(ctx.db, id), 'TAX_INVOICE_FAILED')).toBe(1);
    // Not a dead end (issue 23): the link starts a new reverse issuance, the provider decides again.
    const grant = await f.expectOk(
      f.call<{ grantUrl: string }>(
        'GET',
        f.partnerPath(id, '/reverse-issuance-grant-url'),
        partner.token,
      ),
    );
    expect(grant.grantUrl).toEqual(expect.any(String));
    expect(String(t.reverseOf(await t.detail(ctx.admin, id))['issuanceKey'])).toMatch(/-R2$/);
  });

  it('down_: the request and retry-issuance still succeed; no URL (503), the outbox keeps trying', async () => {
    const { id, partner, requested } = await t.requestedBy(ctx.admin, 'down_');
    expect(requested.status).toBe('AWAITING_ADVERTISER_PAYMENT');
    expect(t.reverseOf(requested)).toMatchObject({ status: 'PENDING', grantUrl: null });
    const grant = await f.call(
      'GET',
      f.partnerPath(id, '/reverse-issuance-grant-url'),
      partner.token,
    );
    expect(grant.status).toBe(503);
    expect(grant.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(grant.headers.get('retry-after')).toEqual(expect.any(String));
    const live = await f.expectOk(
      f.call('GET', f.adminPath(id, '/reverse-issuance-status'), ctx.admin),
    );
    expect(live).toMatchObject({ status: 'PENDING', grantUrl: null });

    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    expect(t.invoiceOf(asked)).toMatchObject({ status: 'DRAFT', taxInvoiceStatus: 'PENDING' });
    await t.waitFor(
      'the provider requests retried',
      () =>
        ctx.db.query<{ n: number }>(
          `select count(*)::int as n from outbox where settlement_id = $1
           and channel = 'TAX_INVOICE_PROVIDER' and attempts >= 2`,
          [id],
        ),
      (rows) => rows[0]!.n === 2,
    );
    expect(t.invoiceOf(await t.detail(ctx.admin, id))['taxInvoiceStatus']).toBe('PENDING');
  });

  it('twice_: the result delivered twice is applied once, for either kind', async () => {
    const { id, partner } = await t.scenarioSettlement(ctx.admin, 'twice_');
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner.token));
    const reverse = await t.waitFor(
      'both deliveries',
      () => t.ledger(ctx.db, `${id}-R1`),
      (r) => r[0]?.deliveries === 2,
    );
    expect(reverse).toMatchObject([{ applied: true, status: 'SUCCESS' }]);
    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const key = String(t.invoiceOf(asked)['taxInvoiceIssuanceKey']);
    await t.waitFor(
      'both deliveries',
      () => t.ledger(ctx.db, key),
      (r) => r[0]?.deliveries === 2,
    );
    const events = await t.eventsOf(ctx.db, id);
    expect(t.count(events, 'INVOICE_ISSUED_ADVERTISER')).toBe(1);
    const audit = (await f.auditOf(ctx.db, id)).map((a) => a.action);
    expect(t.count(audit, 'TAX_INVOICE_ISSUED')).toBe(1);
    expect(t.count(audit, 'PARTNER_INVOICE_RECEIVED')).toBe(1);
  });
});
