import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaxInvoiceSimulator, type RunningTaxInvoiceSimulator } from './index.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.test-support.js';

/**
 * The simulated provider's cancellation tax invoice (issue 23): an issued tax invoice is never
 * deleted, only annulled by another issuance, once, under the caller's key.
 */
const SECRET = 'simulator-cancellation-test-secret';
let receiver: WebhookReceiver;
let sim: RunningTaxInvoiceSimulator;
let keys = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  sim = await startTaxInvoiceSimulator({
    host: '127.0.0.1',
    port: 0,
    webhookUrl: receiver.url,
    webhookSecret: SECRET,
    delayMs: 80,
    webhookRetryDelaysMs: [20, 20, 20],
  });
});
afterAll(async () => {
  await sim.close();
  await receiver.close();
});

const forward = (buyer: string) => ({
  issuanceKey: `INV-2026-12-${String(++keys).padStart(4, '0')}-F1`,
  supplier: { name: '기본 대행사', businessNumber: '1234567891' },
  buyer: { name: buyer, businessNumber: null, email: 'ads@example.com' },
  supplyAmount: '1000000.00',
  vat: '100000.00',
  total: '1100000.00',
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('tax-invoice simulator: cancellation tax invoices', () => {
  it('never deletes an issued tax invoice: it issues one cancellation of it, once', async () => {
    const body = forward('instant_buyer');
    const original = `/v1/issuances/${body.issuanceKey}`;
    await call('POST', '/v1/issuances/forward', body);
    const refused = await call('POST', `${original}/cancel`, {});
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'NOT_CANCELLABLE' } } });
    const ask = { issuanceKey: `${body.issuanceKey}-C1`, reason: 'settlement cancelled' };
    const created = await call('POST', `${original}/cancellation`, ask);
    expect(created).toMatchObject({
      status: 201,
      body: { kind: 'CANCELLATION', status: 'SUCCESS', originalIssuanceKey: body.issuanceKey },
    });
    expect(created.body.taxInvoiceNumber).toEqual(expect.any(String));
    const replay = await call('POST', `${original}/cancellation`, ask);
    expect(replay).toMatchObject({ status: 200, body: created.body });
    const second = await call('POST', `${original}/cancellation`, { issuanceKey: 'OTHER-C1' });
    expect(second).toMatchObject({ status: 409, body: { error: { code: 'ALREADY_CANCELLED' } } });
    expect((await call('GET', original)).body).toMatchObject({
      status: 'SUCCESS',
      cancelledBy: ask.issuanceKey,
    });
    const document = await fetch(`${sim.url}/documents/${String(created.body.taxInvoiceNumber)}`);
    expect(await document.text()).toContain('-1100000.00');
  });

  it('decides a cancellation like its original: by webhook of kind CANCELLATION', async () => {
    const body = forward('Later Co');
    await call('POST', '/v1/issuances/forward', body);
    await receiver.waitForKey(body.issuanceKey);
    const pendingOriginal = forward('manual_buyer');
    await call('POST', '/v1/issuances/forward', pendingOriginal);
    const notIssued = await call(
      'POST',
      `/v1/issuances/${pendingOriginal.issuanceKey}/cancellation`,
      {
        issuanceKey: 'X-C1',
      },
    );
    expect(notIssued).toMatchObject({ status: 409, body: { error: { code: 'NOT_ISSUED' } } });
    const ask = { issuanceKey: `${body.issuanceKey}-C1` };
    const created = await call('POST', `/v1/issuances/${body.issuanceKey}/cancellation`, ask);
    expect(created.body).toMatchObject({ kind: 'CANCELLATION', status: 'PENDING' });
    const delivery = await receiver.waitForKey(ask.issuanceKey);
    expect(delivery.body).toMatchObject({ kind: 'CANCELLATION', status: 'SUCCESS' });
  });
});
