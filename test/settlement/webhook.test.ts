import { describe, expect, it } from 'vitest';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * `POST /api/webhooks/tax-invoice` (DESIGN.md section 5) as a provider would call it: the
 * signature over the raw body, refusals that change nothing, and one event applied once however
 * often, and however concurrently, it is delivered. The issuances are held open (`manual_`
 * counterparties), so every result here is one the test sends.
 */
describe('tax-invoice webhook', () => {
  const ctx = f.useAdmin();

  /** A requested settlement whose reverse issuance waits (R1) and whose invoice waits (F1). */
  async function open() {
    const { id, partner } = await t.scenarioSettlement(ctx.admin, 'manual_');
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner.token));
    const asked = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    return { id, forwardKey: String(t.invoiceOf(asked)['taxInvoiceIssuanceKey']) };
  }

  const ledgerCount = async () =>
    (
      await ctx.db.query<{ n: number }>('select count(*)::int as n from tax_invoice_webhook_event')
    )[0]!.n;

  it('refuses a missing, wrong, 301 s old or 301 s ahead signature with 401, changing nothing', async () => {
    const { id } = await open();
    const raw = JSON.stringify(t.resultEvent(`${id}-R1`, 'REVERSE'));
    const good = t.sign(raw);
    const wrong = good.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    const before = await f.rowCounts(ctx.db, [id]);
    const ledger = await ledgerCount();
    // Stamps are taken per request, just before it is sent, so earlier requests cannot age them.
    // The server compares whole seconds (its clock floored) against a 300 s window. Old: the
    // floored now - 301 is at least 301 s behind however late the request arrives. Ahead: the
    // next whole second + 301 stays over 300 s ahead of the server's floored clock as long as
    // the request lands within a second (floor(now) + 301 could land as 300 s, which is allowed).
    const signatures: (() => string | null)[] = [
      () => null,
      () => wrong,
      () => t.sign(raw, Math.floor(Date.now() / 1000) - 301),
      () => t.sign(raw, Math.ceil(Date.now() / 1000) + 301),
      () => 'v1=abc',
    ];
    for (const signature of signatures) {
      const error = await f.expectError(
        t.deliver(raw, signature()),
        401,
        'WEBHOOK_SIGNATURE_INVALID',
      );
      expect(error.retryable).toBe(false);
    }
    expect(await f.rowCounts(ctx.db, [id])).toEqual(before);
    expect(await ledgerCount()).toBe(ledger);
    expect(t.reverseOf(await t.detail(ctx.admin, id))['status']).toBe('PENDING');
  });

  it('refuses a signed body that is not a tax-invoice event with 400, changing nothing', async () => {
    const { id } = await open();
    const event = t.resultEvent(`${id}-R1`, 'REVERSE');
    const withoutNumber = { ...event };
    delete withoutNumber['taxInvoiceNumber'];
    const bodies = [
      '{"eventId": ',
      JSON.stringify({ ...event, status: 'DONE' }),
      JSON.stringify({ ...event, extra: true }),
      JSON.stringify(withoutNumber),
      JSON.stringify([event]),
    ];
    const before = await f.rowCounts(ctx.db, [id]);
    for (const raw of bodies) await f.expectError(t.deliver(raw), 400, 'INVALID_REQUEST');
    expect(await f.rowCounts(ctx.db, [id])).toEqual(before);
  });

  it('applies a delivery replayed 10 times in sequence once', async () => {
    const { id } = await open();
    const event = t.resultEvent(`${id}-R1`, 'REVERSE');
    const raw = JSON.stringify(event);
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push(await f.expectOk(t.deliver(raw)));
    expect(answers).toEqual([
      { applied: true },
      ...Array.from({ length: 9 }, () => ({ applied: false })),
    ]);
    expect(await t.ledger(ctx.db, `${id}-R1`)).toEqual([
      { event_id: event['eventId'], deliveries: 10, applied: true, status: 'SUCCESS' },
    ]);
    const settlement = await t.detail(ctx.admin, id);
    expect(t.reverseOf(settlement)).toMatchObject({
      status: 'SUCCESS',
      taxInvoiceNumber: event['taxInvoiceNumber'],
    });
    expect(
      t.count(
        (await f.auditOf(ctx.db, id)).map((a) => a.action),
        'PARTNER_INVOICE_RECEIVED',
      ),
    ).toBe(1);

    // Out of order: a later FAILURE of the same issuance never moves it back (SUCCESS is final).
    const late = await f.expectOk(
      t.deliver(JSON.stringify(t.resultEvent(`${id}-R1`, 'REVERSE', 'FAILURE'))),
    );
    expect(late).toEqual({ applied: false });
    expect(t.reverseOf(await t.detail(ctx.admin, id))['status']).toBe('SUCCESS');
  });

  it('applies a delivery sent 10 times concurrently once', async () => {
    const { id, forwardKey } = await open();
    const raw = JSON.stringify(t.resultEvent(forwardKey, 'FORWARD'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => f.expectOk(t.deliver(raw))));
    expect(answers.filter((a) => a.applied)).toHaveLength(1);
    expect((await t.ledger(ctx.db, forwardKey))[0]).toMatchObject({
      deliveries: 10,
      applied: true,
    });
    const settlement = await t.detail(ctx.admin, id);
    expect(t.invoiceOf(settlement)).toMatchObject({
      status: 'ISSUED',
      taxInvoiceStatus: 'SUCCESS',
    });
    const events = await t.eventsOf(ctx.db, id);
    expect(t.count(events, 'INVOICE_ISSUED_ADVERTISER')).toBe(1);
    expect(
      t.count(
        (await f.auditOf(ctx.db, id)).map((a) => a.action),
        'TAX_INVOICE_ISSUED',
      ),
    ).toBe(1);
  });

  it('verifies the raw bytes: spacing and key order as sent, not as re-serialised', async () => {
    const { id, forwardKey } = await open();
    const event = t.resultEvent(forwardKey, 'FORWARD', 'FAILURE');
    const keys = Object.keys(event).reverse();
    const raw = `{\n  ${keys.map((k) => `${JSON.stringify(k)} :  ${JSON.stringify(event[k])}`).join(',\n  ')}\n}\n`;
    expect(await f.expectOk(t.deliver(raw))).toEqual({ applied: true });
    expect(t.invoiceOf(await t.detail(ctx.admin, id))).toMatchObject({
      taxInvoiceStatus: 'FAILURE',
      taxInvoiceFailureCode: 'NTS_REJECTED',
    });
  });

  it('acknowledges an unknown issuance key with applied: false, every time', async () => {
    const raw = JSON.stringify(t.resultEvent('SET999999999-R1', 'REVERSE'));
    expect(await f.expectOk(t.deliver(raw))).toEqual({ applied: false });
    expect(await f.expectOk(t.deliver(raw))).toEqual({ applied: false });
    expect(await t.ledger(ctx.db, 'SET999999999-R1')).toMatchObject([
      { deliveries: 2, applied: false },
    ]);
  });
});
