import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdvertiserInvoice,
  createSettlementServices,
  ReverseIssuance,
  Settlement,
  SettlementAuditEntry,
  TaxInvoiceProviderError,
} from '@campaign/settlement';
import { useServiceDatabase } from '../support/service-database.js';
import * as t from './tax-invoice-support.js';

/**
 * Forward issuance (the agency's tax invoice to the advertiser) against real PostgreSQL with a
 * scripted provider: the outbox row sent, every way a result arrives (answer, webhook), the
 * success step, failures and retries, and the webhook's refusals and idempotency.
 */
const orm = useServiceDatabase('settlement');
const em = () => orm().em.fork();
const provider = new t.FakeProvider();
const services = createSettlementServices({
  outside: { taxInvoiceProvider: provider, taxInvoiceWebhookSecret: t.SECRET },
});
const { platformFlow, partnerRequest, cancellation } = services.workflow;
const deliver = t.providerChannel(provider, services, em);
let parties: t.Parties;

beforeAll(async () => {
  parties = await t.createParties(services, em);
});

async function invoiceOf(id: string) {
  const settlement = await em().findOneOrFail(Settlement, { id });
  return em().findOneOrFail(AdvertiserInvoice, { id: settlement.advertiserInvoiceId! });
}

const webhook = (event: Record<string, unknown>, at?: number) => {
  const { rawBody, signature } = t.signed(event, at);
  return services.taxInvoices.applyWebhook(em(), rawBody, signature);
};

const success = (issuanceKey: string, eventId: string) => ({
  eventId,
  issuanceKey,
  kind: 'FORWARD',
  status: 'SUCCESS',
  taxInvoiceNumber: `20261201-41000000-${eventId.padStart(8, '0').slice(-8)}`,
  documentUrl: `https://provider.test/documents/${eventId}`,
  occurredAt: '2026-12-01T03:00:00.000Z',
});

describe('forward issuance (service tier)', () => {
  it('success by webhook: issued, e-mailed, SETTLEMENT_PENDING moved, applied once however delivered', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    await platformFlow.retryIssuance(em(), t.admin, id);
    const pending = await invoiceOf(id);
    const key = `${pending.invoiceNumber}-F1`;
    expect(pending).toMatchObject({ status: 'DRAFT', taxInvoiceStatus: 'PENDING' });
    expect(pending.taxInvoiceIssuanceKey).toBe(key);

    await deliver(id);
    expect(provider.forwardRequests.at(-1)).toEqual({
      issuanceKey: key,
      supplier: { name: 'Platform Co.', businessNumber: '1208147521' },
      buyer: { name: 'Glow Cosmetics', businessNumber: null, email: 'ads@glow.example' },
      supplyAmount: '1000000.00',
      vat: '100000.00',
      total: '1100000.00',
      description: `${pending.invoiceNumber} Serum reels`,
    });
    expect((await invoiceOf(id)).taxInvoiceStatus).toBe('PENDING');

    const event = success(key, '1001');
    const answers = await Promise.all(Array.from({ length: 10 }, () => webhook(event)));
    expect(answers.filter((a) => a.applied)).toHaveLength(1);
    expect(await webhook(event)).toEqual({ applied: false });

    const issued = await invoiceOf(id);
    expect(issued).toMatchObject({
      status: 'ISSUED',
      taxInvoiceStatus: 'SUCCESS',
      taxInvoiceNumber: event.taxInvoiceNumber,
      taxInvoiceFileKey: event.documentUrl,
    });
    expect(issued.taxInvoiceIssuedAt?.toISOString()).toBe(event.occurredAt);
    expect((await em().findOneOrFail(Settlement, { id })).status).toBe(
      'AWAITING_ADVERTISER_PAYMENT',
    );
    const rows = await t.outbox(em(), id);
    expect(rows.map((r) => r.event)).toEqual([
      'TAX_INVOICE_ISSUE_REQUEST',
      'PAYMENT_REQUEST_ADVERTISER',
      'INVOICE_ISSUED_ADVERTISER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(rows[2]!.payload).toMatchObject({
      taxInvoiceNumber: event.taxInvoiceNumber,
      documentUrl: event.documentUrl,
      invoiceNumber: pending.invoiceNumber,
      issuer: 'Platform Co.',
    });
    expect(rows[3]!.payload).toMatchObject({
      fromStatus: 'SETTLEMENT_PENDING',
      toStatus: 'AWAITING_ADVERTISER_PAYMENT',
      trigger: 'tax-invoice-issued',
    });
    const audit = await em().find(
      SettlementAuditEntry,
      { settlementId: id },
      { orderBy: { id: 'asc' } },
    );
    expect(audit.map((a) => a.action).slice(-2)).toEqual(['STATUS_CHANGED', 'TAX_INVOICE_ISSUED']);

    // Out of order: a FAILURE after the SUCCESS never moves the invoice back; a retry is a 409.
    const late = { ...event, eventId: '1002', status: 'FAILURE', failureCode: 'NTS_REJECTED' };
    delete (late as Record<string, unknown>)['taxInvoiceNumber'];
    expect(await webhook(late)).toEqual({ applied: false });
    expect((await invoiceOf(id)).taxInvoiceStatus).toBe('SUCCESS');
    await expect(platformFlow.retryIssuance(em(), t.admin, id)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('success in the answer (instant): no move after the request, the business partner untouched', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    await partnerRequest.request(em(), t.partnerActor(parties.individual), id);
    await platformFlow.retryIssuance(em(), t.admin, id);
    provider.onForward = async (r) =>
      t.issuance(r.issuanceKey, 'FORWARD', 'SUCCESS', {
        taxInvoiceNumber: '20261201-41000000-00000077',
        documentUrl: 'https://provider.test/documents/77',
      });
    try {
      await deliver(id);
    } finally {
      provider.onForward = async (r) => t.issuance(r.issuanceKey, 'FORWARD', 'PENDING');
    }
    expect(await invoiceOf(id)).toMatchObject({
      status: 'ISSUED',
      taxInvoiceNumber: '20261201-41000000-00000077',
    });
    const events = (await t.outbox(em(), id)).map((r) => r.event);
    expect(events.slice(-1)).toEqual(['INVOICE_ISSUED_ADVERTISER']);
    expect((await em().findOneOrFail(Settlement, { id })).status).toBe(
      'AWAITING_ADVERTISER_PAYMENT',
    );
  });

  it('failure: stored on the invoice and alerted; the retry asks with a new key', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    await platformFlow.retryIssuance(em(), t.admin, id);
    const first = (await invoiceOf(id)).taxInvoiceIssuanceKey!;
    await deliver(id);
    const failure = {
      eventId: '2001',
      issuanceKey: first,
      kind: 'FORWARD',
      status: 'FAILURE',
      failureCode: 'NTS_REJECTED',
      failureMessage: 'refused',
      occurredAt: new Date().toISOString(),
    };
    expect(await webhook(failure)).toEqual({ applied: true });
    expect(await invoiceOf(id)).toMatchObject({
      status: 'DRAFT',
      taxInvoiceStatus: 'FAILURE',
      taxInvoiceFailureCode: 'NTS_REJECTED',
      taxInvoiceFailureMessage: 'refused',
    });
    const alert = (await t.outbox(em(), id)).at(-1)!;
    expect(alert).toMatchObject({
      event: 'TAX_INVOICE_FAILED',
      payload: { kind: 'FORWARD', issuanceKey: first, failureCode: 'NTS_REJECTED', thread: id },
    });
    expect((await em().findOneOrFail(Settlement, { id })).status).toBe('SETTLEMENT_PENDING');

    await platformFlow.retryIssuance(em(), t.admin, id);
    const retried = await invoiceOf(id);
    expect(retried).toMatchObject({ taxInvoiceStatus: 'PENDING', taxInvoiceFailureCode: null });
    expect(retried.taxInvoiceIssuanceKey).toBe(first.replace(/-F1$/, '-F2'));
    // A late result of the first attempt's key finds nothing: it is no longer the invoice's.
    expect(await webhook(success(first, '2002'))).toEqual({ applied: false });
    expect((await invoiceOf(id)).taxInvoiceStatus).toBe('PENDING');
  });

  it('a refusal is the attempt failing; an outage is thrown for the worker to retry', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    await platformFlow.retryIssuance(em(), t.admin, id);
    provider.onForward = async () => {
      throw new TaxInvoiceProviderError('REJECTED', 'AMOUNT_MISMATCH', 'HTTP 400 AMOUNT_MISMATCH');
    };
    await deliver(id);
    expect(await invoiceOf(id)).toMatchObject({
      taxInvoiceStatus: 'FAILURE',
      taxInvoiceFailureCode: 'AMOUNT_MISMATCH',
    });
    expect((await t.outbox(em(), id)).at(-1)!.event).toBe('TAX_INVOICE_FAILED');

    await platformFlow.retryIssuance(em(), t.admin, id);
    const before = await t.outbox(em(), id);
    provider.onForward = async () => {
      throw new TaxInvoiceProviderError('UNAVAILABLE', 'UNAVAILABLE', 'HTTP 503', 1);
    };
    try {
      await expect(deliver(id)).rejects.toMatchObject({ retryable: true });
    } finally {
      provider.onForward = async (r) => t.issuance(r.issuanceKey, 'FORWARD', 'PENDING');
    }
    expect((await invoiceOf(id)).taxInvoiceStatus).toBe('PENDING');
    expect(await t.outbox(em(), id)).toHaveLength(before.length);
  });

  it('retried while pending: the same key again; the business partner’s success step opens its reverse issuance', async () => {
    const id = await t.newSettlement(services, em, parties, parties.corporate);
    await platformFlow.retryIssuance(em(), t.admin, id);
    await platformFlow.retryIssuance(em(), t.admin, id);
    const key = (await invoiceOf(id)).taxInvoiceIssuanceKey!;
    const sent = provider.calls.length;
    await deliver(id);
    expect(provider.calls.slice(sent)).toEqual([`forward ${key}`, `forward ${key}`]);

    expect(await webhook(success(key, '3001'))).toEqual({ applied: true });
    expect((await em().findOneOrFail(Settlement, { id })).status).toBe(
      'AWAITING_ADVERTISER_PAYMENT',
    );
    expect(await em().findOneOrFail(ReverseIssuance, { settlementId: id })).toMatchObject({
      status: 'PENDING',
      issuanceKey: `${id}-R1`,
    });
    expect((await t.outbox(em(), id)).at(-1)!.event).toBe('TAX_INVOICE_REVERSE_ISSUE_REQUEST');
  });

  it('the request of a cancelled settlement is not sent, only withdrawn', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    await platformFlow.retryIssuance(em(), t.admin, id);
    const key = (await invoiceOf(id)).taxInvoiceIssuanceKey!;
    await cancellation.cancel(em(), t.admin, id);
    const sent = provider.calls.length;
    provider.onCancel = async (k) => t.issuance(k, 'FORWARD', 'CANCELLED');
    await deliver(id);
    expect(provider.calls.slice(sent)).toEqual([`cancel ${key}`]);
    expect(await invoiceOf(id)).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceStatus: 'CANCELLED',
    });
  });
});
