import type { RunningServer } from '@campaign/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../../stack/src/free-port.js';
import { Replayed, startReplayServer } from '../../../../../stack/src/replay-server.js';
import { fixture } from './fixtures/load.js';
import { HttpTaxInvoiceProvider } from './http-tax-invoice-provider.js';
import { TaxInvoiceProviderError } from './tax-invoice.port.js';

/**
 * The adapter against recorded-shape provider answers replayed by a local server. The first path
 * segment picks the server's behaviour (`/ok`, `/e409`, `/hang`, ...); the rest is the protocol's.
 */

const errors = fixture<Record<string, unknown>>('errors');
/** Every refusal of this replay carries Retry-After, as the provider's may. */
const refused = (status: number, body: unknown) =>
  new Replayed(status, body, { 'retry-after': '2' });

let server: RunningServer;
const seen: { method: string; path: string; body: unknown; authorization?: string }[] = [];

beforeAll(async () => {
  server = await startReplayServer({
    failures: {
      e400: refused(400, errors.amountMismatch),
      e401: refused(401, errors.unauthorized),
      e404: refused(404, errors.notFound),
      e409: refused(409, errors.keyReused),
      e429: refused(429, errors.unavailable),
      e503: refused(503, errors.unavailable),
      e502html: refused(502, '<html>bad gateway</html>'),
    },
    notJson: '<html>maintenance</html>',
    record: ({ method, path, body, headers }) =>
      seen.push({
        method,
        path,
        body,
        authorization: headers.authorization as string | undefined,
      }),
    answer: ({ mode, path }) => {
      if (mode === 'wrongshape') return { issuanceKey: 'SET3-F1', status: 'DONE' };
      if (mode === 'extra') return { ...fixture<object>('forward_success'), receiptId: 'R-1' };
      if (path === '/v1/issuances/forward') return new Replayed(201, fixture('forward_pending'));
      if (path === '/v1/issuances/reverse') return new Replayed(201, fixture('reverse_pending'));
      if (path.endsWith('/approval-url')) return fixture('reverse_pending');
      if (path.endsWith('/cancel')) return fixture('cancelled');
      if (path.endsWith('/cancellation')) return new Replayed(201, fixture('cancellation_success'));
      if (path === '/v1/issuances/SET4-F1') return fixture('failure');
      return fixture('forward_success');
    },
  });
});
afterAll(() => server.close());

const provider = (mode: string, timeoutMs = 3000) =>
  new HttpTaxInvoiceProvider({ baseUrl: `${server.url}/${mode}/`, apiKey: 'pk_test', timeoutMs });
const FORWARD = {
  issuanceKey: 'SET3-F1',
  supplier: { name: '기본 대행사', businessNumber: '2208162517' },
  buyer: { name: 'Acme', businessNumber: null, email: 'ads@acme.test' },
  supplyAmount: '1000000.00',
  vat: '100000.00',
  total: '1100000.00',
  description: 'CAM3 campaign',
};
const failureOf = (mode: string, timeoutMs?: number) =>
  provider(mode, timeoutMs)
    .issueForward(FORWARD)
    .then(
      () => null,
      (e: unknown) => e as TaxInvoiceProviderError,
    );

describe('HttpTaxInvoiceProvider against recorded answers', () => {
  it('sends each call to its path with the API key, and reads the issuance', async () => {
    const ok = provider('ok');
    const pending = await ok.issueForward(FORWARD);
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      path: '/v1/issuances/forward',
      body: FORWARD,
      authorization: 'Bearer pk_test',
    });
    expect(pending).toMatchObject({
      issuanceKey: 'SET3-F1',
      kind: 'FORWARD',
      status: 'PENDING',
      taxInvoiceNumber: null,
    });
    expect(pending.createdAt).toEqual(new Date('2026-12-01T01:00:00.000Z'));

    const reverse = await ok.requestReverse({
      issuanceKey: 'SET1-R1',
      supplier: { name: 'Hanriver Media', businessNumber: '1208147521', email: 'p@hanriver.test' },
      buyer: { name: '기본 대행사', businessNumber: '2208162517' },
      supplyAmount: '500000.00',
      vat: '50000.00',
      total: '550000.00',
    });
    expect(seen.at(-1)!.path).toBe('/v1/issuances/reverse');
    expect(reverse.approvalUrl).toMatch(/\/approve\//);
    expect(reverse.approvalUrlExpiresAt).toEqual(new Date('2026-12-01T01:10:00.000Z'));

    await ok.reissueApprovalUrl('SET1-R1');
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/issuances/SET1-R1/approval-url',
    });
    expect(await ok.status('SET3-F1')).toMatchObject({
      status: 'SUCCESS',
      taxInvoiceNumber: '20261201-41000000-00000007',
    });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: '/v1/issuances/SET3-F1' });
    expect(await ok.status('SET4-F1')).toMatchObject({
      status: 'FAILURE',
      failureCode: 'NTS_REJECTED',
    });
    expect(await ok.cancel('SET1-R1', 'type changed')).toMatchObject({ status: 'CANCELLED' });
    expect(seen.at(-1)).toMatchObject({
      path: '/v1/issuances/SET1-R1/cancel',
      body: { reason: 'type changed' },
    });
    const annulled = await ok.issueCancellation({
      issuanceKey: 'INV-2026-12-0001-C1',
      originalIssuanceKey: 'INV-2026-12-0001-F1',
      reason: 'settlement cancelled',
    });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/issuances/INV-2026-12-0001-F1/cancellation',
      body: { issuanceKey: 'INV-2026-12-0001-C1', reason: 'settlement cancelled' },
    });
    expect(annulled).toMatchObject({
      kind: 'CANCELLATION',
      status: 'SUCCESS',
      taxInvoiceNumber: '20261202-41000000-00000008',
    });
  });

  it('tolerates fields the provider adds', async () => {
    expect(await provider('extra').status('SET3-F1')).toMatchObject({ status: 'SUCCESS' });
  });

  it('classifies the provider’s refusals', async () => {
    for (const [mode, failure, providerCode, retryable] of [
      ['e400', 'REJECTED', 'AMOUNT_MISMATCH', false],
      ['e401', 'UNAUTHORIZED', 'UNAUTHORIZED', true],
      ['e404', 'NOT_FOUND', 'NOT_FOUND', false],
      ['e409', 'CONFLICT', 'ISSUANCE_KEY_REUSED', false],
      ['e429', 'UNAVAILABLE', 'UNAVAILABLE', true],
      ['e503', 'UNAVAILABLE', 'UNAVAILABLE', true],
      ['e502html', 'UNAVAILABLE', null, true],
      ['notjson', 'UNAVAILABLE', null, true],
      ['wrongshape', 'UNAVAILABLE', null, true],
    ] as const) {
      const error = await failureOf(mode);
      expect(error, mode).toBeInstanceOf(TaxInvoiceProviderError);
      expect(error, mode).toMatchObject({
        system: 'TAX_INVOICE_PROVIDER',
        failure,
        providerCode,
        retryable,
      });
    }
    expect(await failureOf('e503')).toMatchObject({ retryAfterSeconds: 2 });
    expect(await failureOf('e400')).toMatchObject({ retryAfterSeconds: null });
    expect(await provider('e404').status('SET404-F1')).toBeNull();
  });

  it('gives up on a hanging or absent provider within its time limit', async () => {
    expect(await failureOf('hang', 200)).toMatchObject({ failure: 'UNAVAILABLE', retryable: true });
    const nowhere = new HttpTaxInvoiceProvider({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    expect(await nowhere.status('x').catch((e: unknown) => e)).toMatchObject({
      failure: 'UNAVAILABLE',
    });
  });
});
