import { describe, expect, it } from 'vitest';
import { startTaxInvoiceSimulator } from './index.js';
import { DELAY_MS, SECRET, useProviderSimulators } from './server.test-support.js';

/** The simulated provider over HTTP: reverse issuance, webhook delivery and the test controls. */

const p = useProviderSimulators();
const { call, forward, reverse, wait, deliveriesFor, FORM } = p;

describe('reverse issuance', () => {
  it('gives a 10-minute approval URL, re-issues it, and reports the approval by webhook', async () => {
    const body = reverse('Hanriver Media');
    const path = `/v1/issuances/${body.issuanceKey}`;
    const created = await call('POST', '/v1/issuances/reverse', body, p.slow);
    expect(created.body).toMatchObject({ kind: 'REVERSE', status: 'PENDING' });
    expect(created.body.approvalUrlExpiresAt).toBe(new Date(p.clock() + 10 * 60_000).toISOString());
    const first = String(created.body.approvalUrl);
    expect(first.startsWith(`${p.slow.url}/approve/`)).toBe(true);
    expect((await fetch(first)).status).toBe(200);
    const again = await call('POST', `${path}/approval-url`, undefined, p.slow);
    const second = String(again.body.approvalUrl);
    expect(second).not.toBe(first);
    expect((await fetch(first)).status).toBe(410);
    expect((await fetch(second)).status).toBe(200);
    expect((await fetch(`${second}/accept`, FORM)).status).toBe(200);
    expect((await p.receiver.waitForKey(body.issuanceKey)).body).toMatchObject({
      kind: 'REVERSE',
      status: 'SUCCESS',
    });
    expect((await call('GET', path, undefined, p.slow)).body.status).toBe('SUCCESS');
    const late = await call('POST', `${path}/approval-url`, undefined, p.slow);
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'NOT_PENDING' } } });
  });

  it('takes the partner’s rejection on the approval page, and expires the link', async () => {
    const rejected = reverse('Rejecting Partner');
    const url = String(
      (await call('POST', '/v1/issuances/reverse', rejected, p.slow)).body.approvalUrl,
    );
    expect((await fetch(`${url}/reject`, FORM)).status).toBe(200);
    expect((await p.receiver.waitForKey(rejected.issuanceKey)).body).toMatchObject({
      status: 'FAILURE',
      failureCode: 'REJECTED_BY_PARTNER',
    });
    const expiring = reverse('Slow Partner');
    const url2 = String(
      (await call('POST', '/v1/issuances/reverse', expiring, p.slow)).body.approvalUrl,
    );
    p.advanceClock(10 * 60_000 + 1000);
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
    p.receiver.failNext(2, 500);
    const body = forward('Retry Co');
    await call('POST', '/v1/issuances/forward', body);
    const until = Date.now() + 3000;
    while (!deliveriesFor(body.issuanceKey).length && Date.now() < until) await wait(10);
    expect(deliveriesFor(body.issuanceKey)).toHaveLength(1);

    p.receiver.failNext(10, 404);
    const lost = forward('Lost Co');
    await call('POST', '/v1/issuances/forward', lost);
    await wait(DELAY_MS + 200);
    expect(deliveriesFor(lost.issuanceKey)).toEqual([]);
    p.receiver.failNext(0);
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('needs the API key when one is configured', async () => {
    const locked = await startTaxInvoiceSimulator({
      host: '127.0.0.1',
      port: 0,
      webhookUrl: p.receiver.url,
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
      webhookUrl: p.receiver.url,
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
      expect((await p.receiver.waitForKey(one.issuanceKey)).body).toMatchObject({
        status: 'SUCCESS',
      });
      const still = await call('GET', `/v1/issuances/${other.issuanceKey}`, undefined, own);
      expect(still.body).toMatchObject({ status: 'PENDING' });
      expect(await decideNow({})).toEqual({ decided: 1 });
      expect((await p.receiver.waitForKey(other.issuanceKey)).body).toMatchObject({
        status: 'FAILURE',
      });
      await expect.poll(pending).toEqual({ decisions: 0, deliveries: 0 });
    } finally {
      await own.close();
    }
  });
});
