import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaxInvoiceSimulator, type RunningTaxInvoiceSimulator } from './index.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.test-support.js';

/** The simulated provider over HTTP: scenarios, idempotency, reverse issuance, signed webhooks. */

const SECRET = 'simulator-test-webhook-secret';
const DELAY_MS = 80;
let receiver: WebhookReceiver;
let sim: RunningTaxInvoiceSimulator;
/** Decides only after a minute: what happens before the decision, free of timing. */
let slow: RunningTaxInvoiceSimulator;
let clock = Date.parse('2026-12-01T00:00:00Z');
let keys = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  sim = await startTaxInvoiceSimulator({
    host: '127.0.0.1',
    port: 0,
    webhookUrl: receiver.url,
    webhookSecret: SECRET,
    delayMs: DELAY_MS,
    webhookRetryDelaysMs: [20, 20, 20],
    now: () => new Date(clock),
  });
  slow = await startTaxInvoiceSimulator({
    host: '127.0.0.1',
    port: 0,
    webhookUrl: receiver.url,
    webhookSecret: SECRET,
    delayMs: 60_000,
    now: () => new Date(clock),
  });
});
afterAll(async () => {
  await sim.close();
  await slow.close();
  await receiver.close();
});

const key = () => `SET${++keys}-F1`;
const forward = (buyer: string, issuanceKey = key(), extra: Record<string, unknown> = {}) => ({
  issuanceKey,
  supplier: { name: '기본 대행사', businessNumber: '1234567891' },
  buyer: { name: buyer, businessNumber: null, email: 'ads@example.com' },
  supplyAmount: '1000000.00',
  vat: '100000.00',
  total: '1100000.00',
  ...extra,
});
const reverse = (partner: string, issuanceKey = key()) => ({
  issuanceKey,
  supplier: { name: partner, businessNumber: '2208162517', email: 'partner@example.com' },
  buyer: { name: '기본 대행사', businessNumber: '1234567891' },
  supplyAmount: '500000.00',
  vat: '50000.00',
  total: '550000.00',
});

async function call(method: string, path: string, body?: unknown, target = sim) {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}
/** What a browser sends when the approval page's button is pressed. */
const FORM = {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: '',
};
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const deliveriesFor = (issuanceKey: string) =>
  receiver.deliveries.filter((d) => d.body.issuanceKey === issuanceKey);

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
    const delivery = await receiver.waitForKey(body.issuanceKey);
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
    const delivery = await receiver.waitForKey(body.issuanceKey);
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
    await fetch(`${sim.url}${approval.pathname}/accept`, FORM);
    const delivery = await receiver.waitForKey(partner.issuanceKey);
    expect(delivery.body).toMatchObject({ status: 'SUCCESS', kind: 'REVERSE' });
  });

  it('cancels a pending issuance before it is decided, without a webhook', async () => {
    const body = forward('Cancel Co');
    const path = `/v1/issuances/${body.issuanceKey}`;
    await call('POST', '/v1/issuances/forward', body, slow);
    const cancelled = await call('POST', `${path}/cancel`, { reason: 'type changed' }, slow);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    expect((await call('POST', `${path}/cancel`, undefined, slow)).body.status).toBe('CANCELLED');
    expect(deliveriesFor(body.issuanceKey)).toEqual([]);
    const reissue = await call('POST', `${path}/approval-url`, undefined, slow);
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

describe('reverse issuance', () => {
  it('gives a 10-minute approval URL, re-issues it, and reports the approval by webhook', async () => {
    const body = reverse('Hanriver Media');
    const path = `/v1/issuances/${body.issuanceKey}`;
    const created = await call('POST', '/v1/issuances/reverse', body, slow);
    expect(created.body).toMatchObject({ kind: 'REVERSE', status: 'PENDING' });
    expect(created.body.approvalUrlExpiresAt).toBe(new Date(clock + 10 * 60_000).toISOString());
    const first = String(created.body.approvalUrl);
    expect(first.startsWith(`${slow.url}/approve/`)).toBe(true);
    expect((await fetch(first)).status).toBe(200);
    const again = await call('POST', `${path}/approval-url`, undefined, slow);
    const second = String(again.body.approvalUrl);
    expect(second).not.toBe(first);
    expect((await fetch(first)).status).toBe(410);
    expect((await fetch(second)).status).toBe(200);
    expect((await fetch(`${second}/accept`, FORM)).status).toBe(200);
    expect((await receiver.waitForKey(body.issuanceKey)).body).toMatchObject({
      kind: 'REVERSE',
      status: 'SUCCESS',
    });
    expect((await call('GET', path, undefined, slow)).body.status).toBe('SUCCESS');
    const late = await call('POST', `${path}/approval-url`, undefined, slow);
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'NOT_PENDING' } } });
  });

  it('takes the partner’s rejection on the approval page, and expires the link', async () => {
    const rejected = reverse('Rejecting Partner');
    const url = String(
      (await call('POST', '/v1/issuances/reverse', rejected, slow)).body.approvalUrl,
    );
    expect((await fetch(`${url}/reject`, FORM)).status).toBe(200);
    expect((await receiver.waitForKey(rejected.issuanceKey)).body).toMatchObject({
      status: 'FAILURE',
      failureCode: 'REJECTED_BY_PARTNER',
    });
    const expiring = reverse('Slow Partner');
    const url2 = String(
      (await call('POST', '/v1/issuances/reverse', expiring, slow)).body.approvalUrl,
    );
    clock += 10 * 60_000 + 1000;
    expect((await fetch(url2)).status).toBe(410);
    expect((await fetch(`${url2}/accept`, FORM)).status).toBe(410);
  });

  it('instant_ partners approve at once', async () => {
    const created = await call('POST', '/v1/issuances/reverse', reverse('instant_partner'));
    expect(created.body).toMatchObject({ status: 'SUCCESS', approvalUrl: null });
  });
});

describe('webhook delivery', () => {
  it('retries a refused delivery and gives up quietly when the platform never takes it', async () => {
    receiver.failNext(2, 500);
    const body = forward('Retry Co');
    await call('POST', '/v1/issuances/forward', body);
    const until = Date.now() + 3000;
    while (!deliveriesFor(body.issuanceKey).length && Date.now() < until) await wait(10);
    expect(deliveriesFor(body.issuanceKey)).toHaveLength(1);

    receiver.failNext(10, 404);
    const lost = forward('Lost Co');
    await call('POST', '/v1/issuances/forward', lost);
    await wait(DELAY_MS + 200);
    expect(deliveriesFor(lost.issuanceKey)).toEqual([]);
    receiver.failNext(0);
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('needs the API key when one is configured', async () => {
    const locked = await startTaxInvoiceSimulator({
      host: '127.0.0.1',
      port: 0,
      webhookUrl: receiver.url,
      apiKey: 'k-123',
    });
    try {
      expect((await fetch(`${locked.url}/v1/issuances/x`)).status).toBe(401);
      const ok = await fetch(`${locked.url}/v1/issuances/x`, {
        headers: { authorization: 'Bearer k-123' },
      });
      expect(ok.status).toBe(404);
    } finally {
      await locked.close();
    }
  });
});

describe('test controls', () => {
  it('decide-now takes a waiting decision at once; pending says what is still to come', async () => {
    const own = await startTaxInvoiceSimulator({
      host: '127.0.0.1',
      port: 0,
      webhookUrl: receiver.url,
      webhookSecret: SECRET,
      delayMs: 60_000,
    });
    const pending = async () => (await call('GET', '/_sim/pending', undefined, own)).body;
    const decideNow = async (body: unknown) =>
      (await call('POST', '/_sim/decide-now', body, own)).body;
    try {
      const [one, other] = [forward('Acme 광고'), forward('fail_ Acme')];
      for (const body of [one, other])
        expect((await call('POST', '/v1/issuances/forward', body, own)).status).toBe(201);
      expect(await pending()).toEqual({ decisions: 2, deliveries: 0 });
      // One by its key, then the rest: a minute's delay, not waited for.
      expect(await decideNow({ issuanceKey: one.issuanceKey })).toEqual({ decided: 1 });
      expect((await receiver.waitForKey(one.issuanceKey)).body).toMatchObject({
        status: 'SUCCESS',
      });
      const still = await call('GET', `/v1/issuances/${other.issuanceKey}`, undefined, own);
      expect(still.body).toMatchObject({ status: 'PENDING' });
      expect(await decideNow({})).toEqual({ decided: 1 });
      expect((await receiver.waitForKey(other.issuanceKey)).body).toMatchObject({
        status: 'FAILURE',
      });
      await expect.poll(pending).toEqual({ decisions: 0, deliveries: 0 });
    } finally {
      await own.close();
    }
  });
});
