import { describe, expect, it } from 'vitest';
import { useSimulators } from '../../../../../providers/src/tax-invoice/simulator.test-support.js';
import { HttpTaxInvoiceProvider } from './http-tax-invoice-provider.js';
import type { ForwardIssuanceRequest, ReverseIssuanceRequest } from './tax-invoice.port.js';
import { readTaxInvoiceWebhook } from './webhook-event.js';

/** The adapter against the simulated provider, and the webhook it sends read by our reader. */

const SECRET = 'adapter-test-webhook-secret';
/** The second simulator decides only after a minute: what happens before the decision, untimed. */
const rig = useSimulators(SECRET, [{ delayMs: 100, apiKey: 'pk_sim' }, { delayMs: 60_000 }]);
const provider = () =>
  new HttpTaxInvoiceProvider({
    baseUrl: rig.simulators[0]!.url,
    apiKey: 'pk_sim',
    timeoutMs: 3000,
  });
const slow = () => new HttpTaxInvoiceProvider({ baseUrl: rig.simulators[1]!.url, timeoutMs: 3000 });
let n = 0;

const forward = (buyer: string): ForwardIssuanceRequest => ({
  issuanceKey: `SET${++n}-F1`,
  supplier: { name: '기본 대행사', businessNumber: '2208162517' },
  buyer: { name: buyer, businessNumber: null, email: 'ads@example.com' },
  supplyAmount: '1000000.00',
  vat: '100000.00',
  total: '1100000.00',
  description: 'campaign',
});
const reverse = (partner: string): ReverseIssuanceRequest => ({
  issuanceKey: `SET${++n}-R1`,
  supplier: { name: partner, businessNumber: '1208147521', email: 'partner@example.com' },
  buyer: { name: '기본 대행사', businessNumber: '2208162517' },
  supplyAmount: '560000.00',
  vat: '56000.00',
  total: '616000.00',
});

describe('HttpTaxInvoiceProvider against the simulator', () => {
  it('issues forward: PENDING, then SUCCESS by a webhook our reader accepts, and in the live status', async () => {
    const request = forward('Acme');
    expect(await provider().issueForward(request)).toMatchObject({
      status: 'PENDING',
      kind: 'FORWARD',
    });
    // The same request again is the same issuance (a retried outbox row issues once).
    expect((await provider().issueForward(request)).createdAt).toBeInstanceOf(Date);
    const delivered = await rig.receiver.waitForKey(request.issuanceKey);
    const reading = readTaxInvoiceWebhook(delivered.raw, delivered.signature, SECRET);
    expect(reading).toMatchObject({
      ok: true,
      event: { issuanceKey: request.issuanceKey, status: 'SUCCESS' },
    });
    const live = await provider().status(request.issuanceKey);
    expect(live).toMatchObject({ status: 'SUCCESS' });
    expect(reading.ok && reading.event.taxInvoiceNumber).toBe(live!.taxInvoiceNumber);
    expect((await fetch(live!.documentUrl!)).status).toBe(200);
  });

  it('answers the scenarios: instant_, down_, and refusals', async () => {
    expect(await provider().issueForward(forward('instant_Acme'))).toMatchObject({
      status: 'SUCCESS',
    });
    const down = await provider()
      .issueForward(forward('down_Acme'))
      .catch((e: unknown) => e);
    expect(down).toMatchObject({
      failure: 'UNAVAILABLE',
      providerCode: 'UNAVAILABLE',
      retryable: true,
      retryAfterSeconds: 1,
    });
    const request = forward('Acme');
    await provider().issueForward(request);
    const reused = await provider()
      .issueForward({ ...request, description: 'other' })
      .catch((e: unknown) => e);
    expect(reused).toMatchObject({
      failure: 'CONFLICT',
      providerCode: 'ISSUANCE_KEY_REUSED',
      retryable: false,
    });
    const mismatch = await provider()
      .issueForward({ ...forward('Acme'), vat: '1.00' })
      .catch((e: unknown) => e);
    expect(mismatch).toMatchObject({
      failure: 'REJECTED',
      providerCode: 'AMOUNT_MISMATCH',
      retryable: false,
    });
    const locked = new HttpTaxInvoiceProvider({ baseUrl: rig.simulators[0]!.url, apiKey: 'wrong' });
    expect(await locked.status('x').catch((e: unknown) => e)).toMatchObject({
      failure: 'UNAUTHORIZED',
    });
    expect(await provider().status('SET999999-F1')).toBeNull();
  });

  it('requests reverse issuance, re-issues the approval URL and cancels', async () => {
    const request = reverse('Hanriver Media');
    const pending = await slow().requestReverse(request);
    expect(pending).toMatchObject({ status: 'PENDING', kind: 'REVERSE' });
    const ttl = pending.approvalUrlExpiresAt!.getTime() - pending.updatedAt.getTime();
    expect(ttl).toBe(10 * 60_000);
    const again = await slow().reissueApprovalUrl(request.issuanceKey);
    expect(again.approvalUrl).not.toBe(pending.approvalUrl);
    expect((await fetch(pending.approvalUrl!)).status).toBe(410);
    expect(await slow().cancel(request.issuanceKey, 'settlement cancelled')).toMatchObject({
      status: 'CANCELLED',
      approvalUrl: null,
    });
    expect(await slow().cancel(request.issuanceKey)).toMatchObject({ status: 'CANCELLED' });
    const late = await slow()
      .reissueApprovalUrl(request.issuanceKey)
      .catch((e: unknown) => e);
    expect(late).toMatchObject({ failure: 'CONFLICT', providerCode: 'NOT_PENDING' });
  });

  it('reports a fail_ partner’s failure by webhook', async () => {
    const request = reverse('fail_partner');
    await provider().requestReverse(request);
    const delivered = await rig.receiver.waitForKey(request.issuanceKey);
    expect(readTaxInvoiceWebhook(delivered.raw, delivered.signature, SECRET)).toMatchObject({
      ok: true,
      event: {
        issuanceKey: request.issuanceKey,
        kind: 'REVERSE',
        status: 'FAILURE',
        failureCode: 'NTS_REJECTED',
      },
    });
    expect(await provider().status(request.issuanceKey)).toMatchObject({
      status: 'FAILURE',
      failureCode: 'NTS_REJECTED',
    });
  });
});
