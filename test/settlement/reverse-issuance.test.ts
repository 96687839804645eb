import { describe, expect, it } from 'vitest';
import { stack } from '../support/clients.js';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * Reverse issuance while it is open: the partner's approval URL (stored while valid, re-issued
 * once expired), the approval page, the admin's live status, and withdrawal at the provider.
 * Partners are `manual_`: the simulated provider decides nothing until the page is used.
 */
describe('reverse issuance, open', () => {
  const ctx = f.useAdmin();

  /** A `manual_` business partner's requested settlement: its id, partner and approval URL. */
  async function requested() {
    const { id, partner, requested: body } = await t.requestedBy(ctx.admin, 'manual_');
    const grantUrl = String(t.reverseOf(body)['grantUrl']);
    expect(grantUrl).toMatch(new RegExp(`^${stack().taxInvoice}/approve/`));
    return { id, partner, grantUrl, expiresAt: String(t.reverseOf(body)['grantUrlExpiresAt']) };
  }

  const grantUrl = (id: string, token: string) =>
    f.expectOk(
      f.call<{ settlementId: string; grantUrl: string; expiresAt: string }>(
        'GET',
        f.partnerPath(id, '/reverse-issuance-grant-url'),
        token,
      ),
    );

  it('the stored URL while valid; once expired, a fresh one from the provider, stored and e-mailed', async () => {
    const { id, partner, grantUrl: first, expiresAt } = await requested();
    expect(await grantUrl(id, partner.token)).toEqual({
      settlementId: id,
      grantUrl: first,
      expiresAt,
    });

    await ctx.db.query(
      `update reverse_issuance set grant_url_expires_at = now() - interval '1 second'
       where settlement_id = $1`,
      [id],
    );
    const fresh = await grantUrl(id, partner.token);
    expect(fresh.grantUrl).not.toBe(first);
    expect(Date.parse(fresh.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(t.reverseOf(await t.detail(ctx.admin, id))).toMatchObject({
      status: 'PENDING',
      grantUrl: fresh.grantUrl,
      grantUrlExpiresAt: fresh.expiresAt,
    });
    // The provider replaced the link: the old one is gone, the new one opens the page.
    expect((await fetch(first)).status).toBe(410);
    expect((await fetch(fresh.grantUrl)).status).toBe(200);
    const mails = (await f.outboxOf(ctx.db, id)).filter(
      (r) => r.event === 'REVERSE_ISSUANCE_APPROVAL_PARTNER',
    );
    expect(mails.map((m) => m.payload['approvalUrl'])).toEqual([first, fresh.grantUrl]);
    expect(mails.every((m) => m.recipient === partner.email)).toBe(true);
  });

  it('the partner approves on the page: SUCCESS by webhook, the tax invoice received', async () => {
    const { id, grantUrl: url } = await requested();
    const page = await fetch(`${url}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(page.status).toBe(200);
    // The answer that first shows SUCCESS shows the result's whole transaction: a detail is one
    // statement, one snapshot (docs/decisions.md, "Detail answers and read skew").
    const approved = await t.untilReverse(ctx.admin, id, 'SUCCESS');
    expect(approved.partnerInvoiceReceivedAt).toEqual(expect.any(String));
    expect((await f.auditOf(ctx.db, id)).at(-1)).toMatchObject({
      action: 'PARTNER_INVOICE_RECEIVED',
      actor_role: 'SUPER_ADMIN',
    });
  });

  it('live status asks the provider and writes back what it learns (a cancel the platform was not told of)', async () => {
    const { id, partner } = await requested();
    const live = await f.expectOk(
      f.call('GET', f.adminPath(id, '/reverse-issuance-status'), ctx.admin),
    );
    expect(live).toMatchObject({ settlementId: id, status: 'PENDING', issuanceKey: `${id}-R1` });

    // Withdrawn at the provider directly: a cancel is answered, never sent by webhook.
    const cancel = await fetch(`${stack().taxInvoice}/v1/issuances/${id}-R1/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(cancel.status).toBe(200);
    expect(t.reverseOf(await t.detail(ctx.admin, id))['status']).toBe('PENDING');
    const synced = await f.expectOk(
      f.call('GET', f.adminPath(id, '/reverse-issuance-status'), ctx.admin),
    );
    expect(synced).toMatchObject({ status: 'CANCELLED', failureCode: 'CANCELLED', grantUrl: null });
    expect(t.reverseOf(await t.detail(ctx.admin, id))['status']).toBe('CANCELLED');
    const alerts = (await f.outboxOf(ctx.db, id)).filter((r) => r.event === 'TAX_INVOICE_FAILED');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.payload).toMatchObject({ kind: 'REVERSE', providerStatus: 'CANCELLED' });
    // The partner's link starts it again with the next key (issue 23 item 3).
    await f.expectOk(
      f.call('GET', f.partnerPath(id, '/reverse-issuance-grant-url'), partner.token),
    );
    expect(t.reverseOf(await t.detail(ctx.admin, id))).toMatchObject({
      status: 'PENDING',
      issuanceKey: `${id}-R2`,
    });
  });

  it('cancelling the settlement withdraws the reverse issuance at the provider', async () => {
    const { id } = await requested();
    const cancelled = await f.expectOk(f.call('POST', f.adminPath(id, '/cancel'), ctx.admin));
    expect(t.reverseOf(cancelled)).toMatchObject({ status: 'CANCELLED', grantUrl: null });
    await t.waitFor(
      'the provider told',
      () => t.atProvider(`${id}-R1`),
      (i) => i['status'] === 'CANCELLED',
    );
  });

  it('a type change withdraws it too, and a new request asks with a new key', async () => {
    const { id, partner } = await requested();
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, { settlementType: 'DIRECT_INVOICE' }),
    );
    await t.waitFor(
      'the provider told',
      () => t.atProvider(`${id}-R1`),
      (i) => i['status'] === 'CANCELLED',
    );
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, {
        settlementType: 'PLATFORM_SETTLEMENT',
      }),
    );
    const again = await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner.token));
    expect(t.reverseOf(again)).toMatchObject({ status: 'PENDING', issuanceKey: `${id}-R2` });
    expect(t.reverseOf(again)['grantUrl']).toEqual(expect.any(String));
  });
});
