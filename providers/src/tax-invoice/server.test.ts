import { describe, expect, it } from 'vitest';
import { DELAY_MS, useProviderSimulators } from './server.test-support.js';

/** The simulated provider over HTTP: forward issuance, its scenarios and idempotency. */

const p = useProviderSimulators();
const { call, forward, reverse, wait, deliveriesFor, FORM } = p;

describe('forward issuance', () => {
  it('is PENDING, then SUCCESS by a signed webhook after the delay', async () => {
    const body = forward('Acme 광고');
    const created = await call('POST', '/v1/issuances/forward', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      issuanceKey: body.issuanceKey,
      kind: 'FORWARD',
      status: 'PENDING',
      taxInvoiceNumber: null,
      approvalUrl: null,
    });
    const delivery = await p.receiver.waitForKey(body.issuanceKey);
    expect(delivery.signatureOk).toBe(true);
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Object.keys(delivery.body).sort()).toEqual(
      [
        'documentUrl',
        'eventId',
        'issuanceKey',
        'kind',
        'occurredAt',
        'status',
        'taxInvoiceNumber',
      ].sort(),
    );
    expect(delivery.body).toMatchObject({ kind: 'FORWARD', status: 'SUCCESS' });
    expect(delivery.body.taxInvoiceNumber).toMatch(/^20261201-41000000-\d{8}$/);
    const now = await call('GET', `/v1/issuances/${body.issuanceKey}`);
    expect(now.body).toMatchObject({
      status: 'SUCCESS',
      taxInvoiceNumber: delivery.body.taxInvoiceNumber,
    });
    const document = await fetch(String(now.body.documentUrl));
    expect(document.status).toBe(200);
    expect(await document.text()).toContain('1100000.00');
  });

  it('replays the same request and refuses the key for another one', async () => {
    const body = forward('Replay Co');
    expect((await call('POST', '/v1/issuances/forward', body)).status).toBe(201);
    const again = await call('POST', '/v1/issuances/forward', body);
    expect(again.status).toBe(200);
    expect(again.body.issuanceKey).toBe(body.issuanceKey);
    const other = await call('POST', '/v1/issuances/forward', {
      ...body,
      total: '1100001.00',
      vat: '100001.00',
    });
    expect(other).toMatchObject({ status: 409, body: { error: { code: 'ISSUANCE_KEY_REUSED' } } });
  });

  it('instant_ succeeds in the answer and sends no webhook', async () => {
    const body = forward('instant_광고주');
    const created = await call('POST', '/v1/issuances/forward', body);
    expect(created.body).toMatchObject({ status: 'SUCCESS' });
    expect(created.body.taxInvoiceNumber).toEqual(expect.any(String));
    await wait(DELAY_MS * 3);
    expect(deliveriesFor(body.issuanceKey)).toEqual([]);
  });

  it('fail_ fails by webhook with a code', async () => {
    const body = forward('FAIL_advertiser');
    expect((await call('POST', '/v1/issuances/forward', body)).body.status).toBe('PENDING');
    const delivery = await p.receiver.waitForKey(body.issuanceKey);
    expect(delivery.body).toMatchObject({ status: 'FAILURE', failureCode: 'NTS_REJECTED' });
    expect(delivery.body.failureMessage).toEqual(expect.any(String));
    expect(delivery.body).not.toHaveProperty('taxInvoiceNumber');
    const cancel = await call('POST', `/v1/issuances/${body.issuanceKey}/cancel`, {});
    expect(cancel).toMatchObject({ status: 409, body: { error: { code: 'NOT_CANCELLABLE' } } });
  });

  it('down_ answers 503 and keeps nothing', async () => {
    const body = forward('down_advertiser');
    const answer = await call('POST', '/v1/issuances/forward', body);
    expect(answer).toMatchObject({ status: 503, body: { error: { code: 'UNAVAILABLE' } } });
    expect(answer.headers.get('retry-after')).toBe('1');
    expect((await call('GET', `/v1/issuances/${body.issuanceKey}`)).status).toBe(404);
  });

  it('twice_ delivers the same event twice', async () => {
    const body = forward('twice_advertiser');
    await call('POST', '/v1/issuances/forward', body);
    const until = Date.now() + 3000;
    while (deliveriesFor(body.issuanceKey).length < 2 && Date.now() < until) await wait(10);
    const [first, second] = deliveriesFor(body.issuanceKey);
    expect(second!.body).toEqual(first!.body);
    expect(second!.signatureOk).toBe(true);
  });

  it('manual_ decides nothing by itself: only the approval page (or a cancel) does', async () => {
    const held = forward('manual_advertiser');
    const partner = reverse('Manual_partner');
    expect((await call('POST', '/v1/issuances/forward', held)).body.status).toBe('PENDING');
    const pending = await call('POST', '/v1/issuances/reverse', partner);
    await wait(DELAY_MS * 3);
    expect((await call('GET', `/v1/issuances/${held.issuanceKey}`)).body.status).toBe('PENDING');
    expect((await call('GET', `/v1/issuances/${partner.issuanceKey}`)).body.status).toBe('PENDING');
    expect(deliveriesFor(held.issuanceKey)).toEqual([]);
    const approval = new URL(String(pending.body.approvalUrl));
    await fetch(`${p.sim.url}${approval.pathname}/accept`, FORM);
    const delivery = await p.receiver.waitForKey(partner.issuanceKey);
    expect(delivery.body).toMatchObject({ status: 'SUCCESS', kind: 'REVERSE' });
  });

  it('cancels a pending issuance before it is decided, without a webhook', async () => {
    const body = forward('Cancel Co');
    const path = `/v1/issuances/${body.issuanceKey}`;
    await call('POST', '/v1/issuances/forward', body, p.slow);
    const cancelled = await call('POST', `${path}/cancel`, { reason: 'type changed' }, p.slow);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    expect((await call('POST', `${path}/cancel`, undefined, p.slow)).body.status).toBe('CANCELLED');
    expect(deliveriesFor(body.issuanceKey)).toEqual([]);
    const reissue = await call('POST', `${path}/approval-url`, undefined, p.slow);
    expect(reissue).toMatchObject({ status: 409, body: { error: { code: 'NOT_REVERSE' } } });
  });

  it('refuses bad requests with a code', async () => {
    const bad = [
      [{ ...forward('X'), supplyAmount: '1000000' }, 'INVALID_REQUEST'],
      [{ ...forward('X'), vat: '1.00' }, 'AMOUNT_MISMATCH'],
      [{ ...forward('X'), extra: true }, 'INVALID_REQUEST'],
      [{ ...forward('X'), issuanceKey: 'has space' }, 'INVALID_REQUEST'],
    ] as const;
    for (const [body, code] of bad) {
      expect(await call('POST', '/v1/issuances/forward', body), JSON.stringify(body)).toMatchObject(
        {
          status: 400,
          body: { error: { code } },
        },
      );
    }
    expect((await call('GET', '/v1/issuances/nope')).body).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });
  });
});
