import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdvertiserInvoice,
  createSettlementServices,
  Settlement,
  SettlementAuditEntry,
  TaxInvoiceProviderError,
} from '@campaign/settlement';
import { useServiceDatabase } from '../support/service-database.js';
import * as t from './tax-invoice-support.js';

/**
 * The cancellation tax invoice (issue 23 item 1) against real PostgreSQL with a scripted
 * provider: an issued tax invoice of a cancelled invoice is annulled under one stable key, a
 * pending request is withdrawn, and a success reported after the cancel never revives the
 * invoice but is annulled too.
 */
const orm = useServiceDatabase('settlement');
const em = () => orm().em.fork();
const provider = new t.FakeProvider();
const services = createSettlementServices({
  outside: { taxInvoiceProvider: provider, taxInvoiceWebhookSecret: t.SECRET },
});
const { platformFlow, cancellation } = services.workflow;
const deliver = t.providerChannel(provider, services, em);
let parties: t.Parties;
let numbers = 0;

beforeAll(async () => {
  parties = await t.createParties(services, em);
});

const invoiceOf = async (id: string) => {
  const settlement = await em().findOneOrFail(Settlement, { id });
  return em().findOneOrFail(AdvertiserInvoice, { id: settlement.advertiserInvoiceId! });
};
const issued = (key: string, kind: 'FORWARD' | 'CANCELLATION' = 'FORWARD') =>
  t.issuance(key, kind, 'SUCCESS', {
    taxInvoiceNumber: `20261201-41000000-${String(++numbers).padStart(8, '0')}`,
    documentUrl: `https://provider.test/documents/${numbers}`,
  });
const events = async (id: string) => (await t.outbox(em(), id)).map((row) => row.event);
const actions = async (id: string) =>
  (await em().find(SettlementAuditEntry, { settlementId: id }, { orderBy: { id: 'asc' } })).map(
    (entry) => entry.action,
  );

/** A settlement whose forward tax invoice the provider issued in its answer. */
async function issuedSettlement(): Promise<{ id: string; key: string; number: string }> {
  const id = await t.newSettlement(services, em, parties, parties.individual);
  provider.onForward = async (r) => issued(r.issuanceKey);
  await platformFlow.retryIssuance(em(), t.admin, id);
  await deliver(id);
  const invoice = await invoiceOf(id);
  expect(invoice).toMatchObject({ status: 'ISSUED', taxInvoiceStatus: 'SUCCESS' });
  return { id, key: invoice.taxInvoiceIssuanceKey!, number: invoice.taxInvoiceNumber! };
}

describe('cancellation tax invoice (service tier)', () => {
  it('cancel of an issued invoice: annulled once under one key, advertiser and team told', async () => {
    const { id, key, number } = await issuedSettlement();
    await cancellation.cancel(em(), t.admin, id);
    const cancelled = await invoiceOf(id);
    const cancelKey = `${cancelled.invoiceNumber}-C1`;
    expect(cancelled).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceNumber: number,
      cancellationTaxInvoiceIssuanceKey: cancelKey,
      cancellationTaxInvoiceStatus: 'PENDING',
    });
    const sent = provider.calls.length;
    provider.onCancellation = async (r) => issued(r.issuanceKey, 'CANCELLATION');
    await deliver(id);
    expect(provider.calls.slice(sent)).toEqual([`cancellation ${cancelKey} of ${key}`]);
    const annulled = await invoiceOf(id);
    expect(annulled).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceNumber: number,
      cancellationTaxInvoiceStatus: 'SUCCESS',
    });
    expect(annulled.cancellationTaxInvoiceNumber).toMatch(/^20261201-41000000-/);
    expect(annulled.cancellationTaxInvoiceIssuedAt).toBeInstanceOf(Date);
    const after = await events(id);
    expect(after.slice(-3)).toEqual([
      'TAX_INVOICE_CANCELLATION_REQUEST',
      'INVOICE_CANCELLED_ADVERTISER',
      'TAX_INVOICE_CANCELLED',
    ]);
    expect((await actions(id)).at(-1)).toBe('TAX_INVOICE_CANCELLED');
    // The same result again (a webhook after the answer) changes nothing.
    const again = await services.taxInvoices.results.apply(em(), {
      ...issued(cancelKey, 'CANCELLATION'),
      at: new Date(),
    });
    expect(again).toBe('unchanged');
    expect(await events(id)).toEqual(after);
  });

  it('a pending request withdrawn finds it issued: the issue is annulled, never revived', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    provider.onForward = async (r) => t.issuance(r.issuanceKey, 'FORWARD', 'PENDING');
    await platformFlow.retryIssuance(em(), t.admin, id);
    await deliver(id);
    const key = (await invoiceOf(id)).taxInvoiceIssuanceKey!;
    await cancellation.cancel(em(), t.admin, id);
    expect((await events(id)).at(-1)).toBe('TAX_INVOICE_FORWARD_WITHDRAW_REQUEST');

    // The provider had issued it meanwhile: it refuses to delete it and says so in its status.
    const late = issued(key);
    provider.onCancel = async () => {
      throw new TaxInvoiceProviderError('CONFLICT', 'NOT_CANCELLABLE', 'issued');
    };
    provider.onStatus = async () => late;
    provider.onCancellation = async (r) => t.issuance(r.issuanceKey, 'CANCELLATION', 'PENDING');
    await deliver(id);
    const invoice = await invoiceOf(id);
    expect(invoice).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceStatus: 'SUCCESS',
      taxInvoiceNumber: late.taxInvoiceNumber,
      cancellationTaxInvoiceStatus: 'PENDING',
    });
    await deliver(id); // the cancellation request that result wrote
    expect(provider.calls.slice(-3)).toEqual([
      `cancel ${key}`,
      `status ${key}`,
      `cancellation ${invoice.invoiceNumber}-C1 of ${key}`,
    ]);
    const settlement = await em().findOneOrFail(Settlement, { id });
    expect(settlement.status).toBe('SETTLEMENT_CANCELLED');
    const sent = await events(id);
    expect(sent).not.toContain('INVOICE_ISSUED_ADVERTISER');
    expect(sent).not.toContain('TAX_INVOICE_FAILED');
    provider.onStatus = async () => null;
  });

  it('a withdrawal the provider confirms: no alert, no cancellation tax invoice', async () => {
    const id = await t.newSettlement(services, em, parties, parties.individual);
    provider.onForward = async (r) => t.issuance(r.issuanceKey, 'FORWARD', 'PENDING');
    await platformFlow.retryIssuance(em(), t.admin, id);
    await deliver(id);
    await cancellation.cancel(em(), t.admin, id);
    provider.onCancel = async (key) => t.issuance(key, 'FORWARD', 'CANCELLED');
    await deliver(id);
    expect(await invoiceOf(id)).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceStatus: 'CANCELLED',
      cancellationTaxInvoiceStatus: null,
    });
    expect(await events(id)).not.toContain('TAX_INVOICE_FAILED');
    // Stored on the invoice; the settlement is left alone (no claim, no entry after the cancel).
    expect((await actions(id)).at(-1)).toBe('STATUS_CHANGED');
  });
});
