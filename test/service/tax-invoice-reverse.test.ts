import { beforeAll, describe, expect, it } from 'vitest';
import {
  PartnerPayout,
  ReverseIssuance,
  Settlement,
  TaxInvoiceProviderError,
  type Issuance,
} from '@campaign/settlement';
import * as t from './tax-invoice-support.js';
import { eventually } from '../support/wait.js';

/**
 * Reverse issuance (the business partner's tax invoice to the agency) against real PostgreSQL
 * with a scripted provider: the inline request and its bound, approval URLs and their refresh,
 * results by webhook and live look-up, and the webhook's refusals.
 */
/**
 * Long enough that a loaded machine (the stacks boot while this tier runs) never turns "answered"
 * into "not answered in time": 300 ms once did. Only the never-answering case waits it out.
 */
const INLINE_WAIT_MS = 2000;
const { em, provider, services, deliver } = t.useProviderWorld(INLINE_WAIT_MS);
const { platformFlow, partnerRequest, cancellation } = services.workflow;
let parties: t.Parties;

beforeAll(async () => {
  parties = await t.createParties(services, em);
});

const record = (id: string) => em().findOneOrFail(ReverseIssuance, { settlementId: id });
const events = async (id: string) => (await t.outbox(em(), id)).map((r) => r.event);
const approvalMails = async (id: string) =>
  (await events(id)).filter((e) => e === 'REVERSE_ISSUANCE_APPROVAL_PARTNER').length;

/** A business partner's settlement, requested, with its approval URL asked for inline. */
async function requested(partnerId = parties.corporate): Promise<string> {
  const id = await t.newSettlement(services, em, parties, partnerId);
  await partnerRequest.request(em(), t.partnerActor(partnerId), id);
  await services.taxInvoices.requestReverseInline(em(), id);
  return id;
}

const webhook = (event: Record<string, unknown>, at?: number) => {
  const { rawBody, signature } = t.signed(event, at);
  return services.taxInvoices.applyWebhook(em(), rawBody, signature);
};

const reverseSuccess = (id: string, eventId: string) => ({
  eventId,
  issuanceKey: `${id}-R1`,
  kind: 'REVERSE',
  status: 'SUCCESS',
  taxInvoiceNumber: '20261201-41000000-00000123',
  documentUrl: 'https://provider.test/documents/123',
  occurredAt: '2026-12-01T04:00:00.000Z',
});

describe('reverse issuance (service tier)', () => {
  it('request: the approval URL inline, stored with its expiry and e-mailed once', async () => {
    const id = await requested();
    const stored = await record(id);
    expect(stored.status).toBe('PENDING');
    expect(stored.grantUrl).toMatch(/^https:\/\/provider\.test\/approve\//);
    expect(stored.grantUrlExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 590_000);
    const mail = (await t.outbox(em(), id)).at(-1)!;
    expect(mail).toMatchObject({
      event: 'REVERSE_ISSUANCE_APPROVAL_PARTNER',
      payload: { approvalUrl: stored.grantUrl, issuanceKey: `${id}-R1`, totalAmount: '880000.00' },
    });
    // The outbox worker sends the same row again: the provider answers the same issuance.
    provider.onReverse = async () => ({
      ...t.issuance(`${id}-R1`, 'REVERSE', 'PENDING'),
      approvalUrl: stored.grantUrl,
      approvalUrlExpiresAt: stored.grantUrlExpiresAt,
    });
    await deliver(id);
    provider.onReverse = async (r) => t.pendingReverse(r.issuanceKey);
    expect(await approvalMails(id)).toBe(1);
    const grant = await services.taxInvoices.grantUrl(em(), id, t.partnerActor(parties.corporate));
    expect(grant).toEqual({
      settlementId: id,
      grantUrl: stored.grantUrl,
      expiresAt: stored.grantUrlExpiresAt,
    });
  });

  it('no answer within the inline wait: grantUrl null at once, the late answer still stored', async () => {
    let answer: (issuance: Issuance) => void = () => undefined;
    provider.onReverse = () => new Promise<Issuance>((resolve) => (answer = resolve));
    const started = Date.now();
    const id = await requested();
    provider.onReverse = async (r) => t.pendingReverse(r.issuanceKey);
    expect(Date.now() - started).toBeLessThan(INLINE_WAIT_MS + 2000);
    expect((await record(id)).grantUrl).toBeNull();
    answer(t.pendingReverse(`${id}-R1`));
    await eventually(
      () => record(id),
      (r) => Boolean(r.grantUrl),
      'the late answer stored',
      5000,
      50,
    );
    expect(await approvalMails(id)).toBe(1);
  });

  it('a provider outage never fails the request; the grant URL is then a 503', async () => {
    provider.onReverse = async () => {
      throw new TaxInvoiceProviderError('UNAVAILABLE', 'UNAVAILABLE', 'HTTP 503', 1);
    };
    try {
      const id = await requested();
      expect(await em().findOneOrFail(Settlement, { id })).toMatchObject({
        status: 'AWAITING_ADVERTISER_PAYMENT',
      });
      expect(await record(id)).toMatchObject({ status: 'PENDING', grantUrl: null });
      await expect(
        services.taxInvoices.grantUrl(em(), id, t.partnerActor(parties.corporate)),
      ).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
      await expect(deliver(id)).rejects.toMatchObject({ retryable: true });
    } finally {
      provider.onReverse = async (r) => t.pendingReverse(r.issuanceKey);
    }
  });

  it('an expired approval URL is re-issued by the provider, stored and e-mailed again', async () => {
    const id = await requested();
    const first = await record(id);
    await em().nativeUpdate(
      ReverseIssuance,
      { id: first.id },
      { grantUrlExpiresAt: new Date(Date.now() - 1000) },
    );
    provider.onStatus = async (key) => ({
      ...t.issuance(key, 'REVERSE', 'PENDING'),
      approvalUrl: first.grantUrl,
      approvalUrlExpiresAt: new Date(Date.now() - 1000),
    });
    const grant = await services.taxInvoices.grantUrl(em(), id, t.partnerActor(parties.corporate));
    provider.onStatus = async () => null;
    expect(grant.grantUrl).not.toBe(first.grantUrl);
    expect(grant.expiresAt.getTime()).toBeGreaterThan(Date.now() + 590_000);
    expect(provider.calls.slice(-2)).toEqual([`status ${id}-R1`, `reissue ${id}-R1`]);
    expect((await record(id)).grantUrl).toBe(grant.grantUrl);
    expect(await approvalMails(id)).toBe(2);
  });

  it('SUCCESS by webhook: partnerInvoiceReceivedAt and the payout’s invoice, once', async () => {
    const id = await requested();
    await platformFlow.retryIssuance(em(), t.admin, id);
    await platformFlow.confirmAdvertiserPayment(em(), t.admin, id);
    await platformFlow.startPayout(em(), t.admin, id);
    const event = reverseSuccess(id, '5001');
    const answers = await Promise.all(Array.from({ length: 5 }, () => webhook(event)));
    expect(answers.filter((a) => a.applied)).toHaveLength(1);
    const settlement = await em().findOneOrFail(Settlement, { id });
    expect(settlement.partnerInvoiceReceivedAt?.toISOString()).toBe(event.occurredAt);
    expect(
      await em().findOneOrFail(PartnerPayout, { id: settlement.partnerPayoutId! }),
    ).toMatchObject({
      status: 'INVOICE_RECEIVED',
      partnerInvoiceNumber: event.taxInvoiceNumber,
      partnerInvoiceFileKey: event.documentUrl,
    });
    expect(await record(id)).toMatchObject({
      status: 'SUCCESS',
      grantUrl: null,
      taxInvoiceNumber: event.taxInvoiceNumber,
    });
    // Out of order: a FAILURE afterwards changes nothing (SUCCESS is final).
    const late = { ...event, eventId: '5002', status: 'FAILURE', failureCode: 'X' };
    expect(await webhook(late)).toEqual({ applied: false });
    await platformFlow.complete(em(), t.admin, id);
  });

  it('SUCCESS before start-payout: the payout is created with the partner’s invoice', async () => {
    const id = await requested();
    expect(await webhook(reverseSuccess(id, '6001'))).toEqual({ applied: true });
    await platformFlow.retryIssuance(em(), t.admin, id);
    await platformFlow.confirmAdvertiserPayment(em(), t.admin, id);
    await platformFlow.startPayout(em(), t.admin, id);
    const settlement = await em().findOneOrFail(Settlement, { id });
    expect(
      await em().findOneOrFail(PartnerPayout, { id: settlement.partnerPayoutId! }),
    ).toMatchObject({
      status: 'INVOICE_RECEIVED',
      partnerInvoiceNumber: '20261201-41000000-00000123',
    });
    expect(await events(id)).not.toContain('INVOICE_REQUEST_PARTNER');
  });

  it('live status: a FAILURE learned from the provider is stored and alerted', async () => {
    const id = await requested();
    provider.onStatus = async (key) =>
      t.issuance(key, 'REVERSE', 'FAILURE', {
        failureCode: 'REJECTED_BY_PARTNER',
        failureMessage: 'no',
      });
    const live = await services.taxInvoices.liveReverseStatus(em(), id, t.admin);
    provider.onStatus = async () => null;
    expect(live).toMatchObject({
      status: 'FAILURE',
      failureCode: 'REJECTED_BY_PARTNER',
      failureMessage: 'no',
    });
    expect((await t.outbox(em(), id)).at(-1)).toMatchObject({
      event: 'TAX_INVOICE_FAILED',
      payload: { kind: 'REVERSE', failureCode: 'REJECTED_BY_PARTNER' },
    });
    await expect(
      services.taxInvoices.grantUrl(em(), id, t.partnerActor(parties.corporate)),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('a partner without a business number cannot request (issue 23): 409, nothing asked', async () => {
    const sent = provider.calls.length;
    const id = await t.newSettlement(services, em, parties, parties.unnumbered);
    await expect(
      partnerRequest.request(em(), t.partnerActor(parties.unnumbered), id),
    ).rejects.toMatchObject({ code: 'PARTNER_BUSINESS_NUMBER_MISSING' });
    expect(provider.calls.length).toBe(sent);
    expect(await em().findOne(ReverseIssuance, { settlementId: id })).toBeNull();
  });

  it('cancel withdraws it at the provider; nothing there to withdraw is fine too', async () => {
    const id = await requested();
    await cancellation.cancel(em(), t.admin, id);
    provider.onCancel = async () => {
      throw new TaxInvoiceProviderError('NOT_FOUND', 'NOT_FOUND', 'HTTP 404');
    };
    await deliver(id);
    provider.onCancel = async (key) => t.issuance(key, 'REVERSE', 'CANCELLED');
    expect(provider.calls.at(-1)).toBe(`cancel ${id}-R1`);
    expect(await record(id)).toMatchObject({ status: 'CANCELLED', grantUrl: null });
    // The approval the provider reports afterwards does not revive it.
    expect(await webhook(reverseSuccess(id, '7001'))).toEqual({ applied: false });
  });

  it('refused deliveries change nothing: signature missing, wrong, too old, too new; malformed body', async () => {
    const id = await requested();
    const { rawBody, signature } = t.signed(reverseSuccess(id, '8001'));
    const now = Math.floor(Date.now() / 1000);
    const refusals = [
      [rawBody, undefined],
      [rawBody, signature.replace(/v1=./, (m) => (m.endsWith('0') ? 'v1=1' : 'v1=0'))],
      [rawBody, t.signed(reverseSuccess(id, '8001'), now - 301).signature],
      [rawBody, t.signed(reverseSuccess(id, '8001'), now + 301).signature],
    ] as const;
    for (const [body, header] of refusals) {
      await expect(services.taxInvoices.applyWebhook(em(), body, header)).rejects.toMatchObject({
        code: 'WEBHOOK_SIGNATURE_INVALID',
      });
    }
    const malformed = t.signed({ eventId: 'x', status: 'SUCCESS' });
    await expect(
      services.taxInvoices.applyWebhook(em(), malformed.rawBody, malformed.signature),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await record(id)).toMatchObject({ status: 'PENDING' });
    const seen = await em().execute(
      'select 1 from tax_invoice_webhook_event where event_id in (?, ?)',
      ['8001', 'x'],
    );
    expect(seen).toHaveLength(0);
    expect(await webhook({ ...reverseSuccess(id, '8002'), issuanceKey: 'SET0-R9' })).toEqual({
      applied: false,
    });
  });
});
