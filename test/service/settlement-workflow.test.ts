import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@campaign/platform';
import { SettlementAuditEntry } from '@campaign/settlement';
import { Campaign } from '@campaign/settlement';
import { AdvertiserInvoice } from '@campaign/settlement';
import { PartnerPayout } from '@campaign/settlement';
import { ReverseIssuance } from '@campaign/settlement';
import { createSettlementServices } from '@campaign/settlement';
import { Settlement } from '@campaign/settlement';
import type { SettlementType } from '@campaign/settlement';
import { insertDefaultAgency, useServiceDatabase } from '../support/service-database.js';

/**
 * The settlement triggers against real PostgreSQL, called as the resolvers call them (no HTTP):
 * every family of spec section 3, the writes each leaves, and the optimistic lock (DESIGN S2).
 */
const orm = useServiceDatabase('settlement');
const services = createSettlementServices();
const { partnerRequest, platformFlow, directFlow, typeChange, cancellation, statusChange } =
  services.workflow;
const em = () => orm().em.fork();

const admin: Principal = { subject: 'svc', role: 'SUPER_ADMIN', agencyId: null, partnerId: null };
const partners: Record<'INDIVIDUAL' | 'CORPORATE_BUSINESS', { id: string; actor: Principal }> =
  {} as never;
let advertiserId: number;

beforeAll(async () => {
  await insertDefaultAgency(em());
  for (const entityType of ['INDIVIDUAL', 'CORPORATE_BUSINESS'] as const) {
    const { id } = await services.partners.createPartner(em(), {
      name: `Partner ${entityType}`,
      entityType,
      email: `${entityType.toLowerCase()}@example.com`,
      bankName: 'Kakao Bank',
      accountNumber: '3333-01-1234567',
      accountHolder: 'Holder',
    });
    const actor: Principal = { subject: 'p', role: 'PARTNER', agencyId: null, partnerId: id };
    partners[entityType] = { id, actor };
  }
  const advertiser = await services.partners.createAdvertiser(em(), {
    name: 'Glow Cosmetics',
    email: 'ads@glow.example',
  });
  advertiserId = Number(advertiser.id);
});

/** A campaign of 1,000,000 marked UPLOADED: its settlement's id. */
async function newSettlement(
  partner: keyof typeof partners,
  settlementType: SettlementType = 'PLATFORM_SETTLEMENT',
): Promise<string> {
  const campaign = await services.campaigns.create(
    em(),
    {
      partnerId: Number(partners[partner].id),
      advertiserId,
      title: 'Campaign',
      price: '1000000.00',
      settlementType,
    },
    admin,
  );
  await services.campaigns.markUploaded(em(), campaign.id, admin);
  return (await em().findOneOrFail(Settlement, { campaignId: campaign.id })).id;
}

/** Everything one settlement's changes wrote, read fresh. */
async function rows(id: string) {
  const e = em();
  const settlement = await e.findOneOrFail(Settlement, { id });
  const invoice = settlement.advertiserInvoiceId
    ? await e.findOneOrFail(AdvertiserInvoice, { id: settlement.advertiserInvoiceId })
    : null;
  const payout = settlement.partnerPayoutId
    ? await e.findOneOrFail(PartnerPayout, { id: settlement.partnerPayoutId })
    : null;
  const outbox = await e.execute<{ event: string; dedupe_key: string }[]>(
    'select event, dedupe_key from outbox where settlement_id = ? order by id',
    [id],
  );
  return {
    settlement,
    campaign: await e.findOneOrFail(Campaign, { id: settlement.campaignId }),
    invoice,
    payout,
    reverse: await e.findOne(ReverseIssuance, { settlementId: id }),
    audit: (
      await e.find(SettlementAuditEntry, { settlementId: id }, { orderBy: { id: 'asc' } })
    ).map((a) => `${a.action}:${a.toStatus}`),
    events: outbox.map((o) => o.event),
    dedupeKeys: outbox.map((o) => o.dedupe_key),
  };
}

const rejects = (promise: Promise<unknown>, code: string) =>
  expect(promise).rejects.toMatchObject({ code });

describe('settlement workflow (service tier)', () => {
  it('PLATFORM_SETTLEMENT, business partner: request to completion', async () => {
    const id = await newSettlement('CORPORATE_BUSINESS');
    const partner = partners.CORPORATE_BUSINESS.actor;
    await partnerRequest.request(em(), partner, id, { reason: 'done' });
    expect((await rows(id)).reverse).toMatchObject({ status: 'PENDING', issuanceKey: `${id}-R1` });
    await platformFlow.retryIssuance(em(), admin, id);
    await statusChange.changeStatus(em(), admin, id, { status: 'ADVERTISER_PAID' });
    await platformFlow.startPayout(em(), admin, id);
    const before = await rows(id);
    expect(before.invoice).toMatchObject({ status: 'PAID', invoiceNumber: expect.any(String) });
    expect(before.payout).toMatchObject({ status: 'PENDING', payoutNumber: expect.any(String) });
    expect(before.payout!.totalAmount.toFixed(2)).toBe('800000.00');

    await rejects(platformFlow.complete(em(), admin, id), 'TAX_INVOICE_NOT_RECEIVED');
    expect((await rows(id)).settlement.version).toBe(before.settlement.version);
    await platformFlow.confirmPartnerInvoiceReceived(em(), admin, id, {
      partnerInvoiceNumber: 'TI-1',
    });
    expect((await rows(id)).payout).toMatchObject({ status: 'INVOICE_RECEIVED' });
    await platformFlow.complete(em(), admin, id, { transactionId: 'TX-1' });

    const after = await rows(id);
    expect(after.settlement).toMatchObject({ status: 'SETTLEMENT_COMPLETED', version: 7 });
    expect(after.campaign.status).toBe('COMPLETED');
    expect(after.payout).toMatchObject({ status: 'COMPLETED', transactionId: 'TX-1' });
    expect(after.audit).toEqual([
      'CREATED:SETTLEMENT_PENDING',
      'STATUS_CHANGED:AWAITING_ADVERTISER_PAYMENT',
      'ISSUANCE_REQUESTED:AWAITING_ADVERTISER_PAYMENT',
      'STATUS_CHANGED:ADVERTISER_PAID',
      'STATUS_CHANGED:PARTNER_PAYOUT_PROCESSING',
      'PARTNER_INVOICE_RECEIVED:PARTNER_PAYOUT_PROCESSING',
      'STATUS_CHANGED:SETTLEMENT_COMPLETED',
    ]);
    expect(after.events).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
      'TAX_INVOICE_REVERSE_ISSUE_REQUEST',
      'TAX_INVOICE_ISSUE_REQUEST',
      'PAYMENT_REQUEST_ADVERTISER',
      'PAYMENT_CONFIRMED_ADVERTISER',
      'ADVERTISER_PAID_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
      'SETTLEMENT_STATUS_CHANGED',
      'INVOICE_REQUEST_PARTNER',
      'PAYOUT_COMPLETED_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(new Set(after.dedupeKeys).size).toBe(after.dedupeKeys.length);
  });

  it('DIRECT_INVOICE: request, invoice-issued once, invoice-paid completes at once', async () => {
    const id = await newSettlement('INDIVIDUAL', 'DIRECT_INVOICE');
    const partner = partners.INDIVIDUAL.actor;
    expect((await rows(id)).settlement.commissionAmount.toFixed(2)).toBe('0.00');
    await partnerRequest.request(em(), partner, id);
    await rejects(platformFlow.retryIssuance(em(), admin, id), 'SETTLEMENT_TYPE_MISMATCH');
    await directFlow.markInvoiceIssued(em(), partner, id);
    await rejects(directFlow.markInvoiceIssued(em(), admin, id), 'CONFLICT');
    await directFlow.markInvoicePaid(em(), partner, id);
    const after = await rows(id);
    expect(after.settlement).toMatchObject({ status: 'SETTLEMENT_COMPLETED', version: 4 });
    expect(after.settlement.invoicePaidAt).toBeInstanceOf(Date);
    expect(after.campaign.status).toBe('COMPLETED');
    expect(after.reverse).toBeNull();
    expect(after.events).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
      'DIRECT_SETTLEMENT_REQUEST',
      'INVOICE_ISSUED_ADVERTISER',
      'PAYMENT_CONFIRMED_ADVERTISER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
  });

  it('type change: allowed before any invoice is issued, then 409', async () => {
    const id = await newSettlement('CORPORATE_BUSINESS');
    await partnerRequest.request(em(), partners.CORPORATE_BUSINESS.actor, id);
    await platformFlow.retryIssuance(em(), admin, id);
    const draft = (await rows(id)).invoice!;
    await typeChange.changeType(em(), admin, id, { settlementType: 'DIRECT_INVOICE' });
    const changed = await rows(id);
    expect(changed.settlement).toMatchObject({
      status: 'SETTLEMENT_PENDING',
      settlementType: 'DIRECT_INVOICE',
      advertiserInvoiceId: null,
      requestedAt: null,
    });
    expect(changed.settlement.payoutAmount.toFixed(2)).toBe('1000000.00');
    expect(changed.campaign.settlementType).toBe('DIRECT_INVOICE');
    expect((await em().findOneOrFail(AdvertiserInvoice, { id: draft.id })).status).toBe(
      'CANCELLED',
    );
    expect(changed.reverse?.status).toBe('CANCELLED');
    expect(changed.events.slice(-2)).toEqual([
      'SETTLEMENT_STATUS_CHANGED',
      'TAX_INVOICE_REVERSE_CANCEL_REQUEST',
    ]);
    await rejects(
      typeChange.changeType(em(), admin, id, { settlementType: 'DIRECT_INVOICE' }),
      'CONFLICT',
    );
    await directFlow.markInvoiceIssued(em(), admin, id);
    await rejects(
      typeChange.changeType(em(), admin, id, { settlementType: 'PLATFORM_SETTLEMENT' }),
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );
  });

  it('cancel takes the invoice and payout held only by the settlement with it', async () => {
    const id = await newSettlement('INDIVIDUAL');
    await partnerRequest.request(em(), partners.INDIVIDUAL.actor, id);
    await platformFlow.retryIssuance(em(), admin, id);
    await platformFlow.confirmAdvertiserPayment(em(), admin, id);
    await platformFlow.startPayout(em(), admin, id);
    expect((await rows(id)).payout?.status).toBe('PROCESSING');
    await cancellation.cancel(em(), admin, id, { reason: 'called off' });
    const after = await rows(id);
    expect(after.settlement.status).toBe('SETTLEMENT_CANCELLED');
    expect(after.invoice?.status).toBe('CANCELLED');
    expect(after.payout?.status).toBe('CANCELLED');
    expect(after.campaign.status).toBe('UPLOADED');
    const entry = await em().findOneOrFail(SettlementAuditEntry, {
      settlementId: id,
      toStatus: 'SETTLEMENT_CANCELLED',
    });
    expect(entry.details).toMatchObject({
      cancelledInvoice: after.invoice!.invoiceNumber,
      cancelledPayout: after.payout!.payoutNumber,
    });
  });

  it('a move outside the table is a 409 that writes nothing', async () => {
    const id = await newSettlement('INDIVIDUAL');
    const before = await rows(id);
    await expect(
      statusChange.changeStatus(em(), admin, id, { status: 'ADVERTISER_PAID' }),
    ).rejects.toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      extensions: expect.objectContaining({ currentStatus: 'SETTLEMENT_PENDING' }),
    });
    await rejects(platformFlow.complete(em(), admin, id), 'INVALID_STATUS_TRANSITION');
    await cancellation.cancel(em(), admin, id);
    await rejects(cancellation.cancel(em(), admin, id), 'INVALID_STATUS_TRANSITION');
    const after = await rows(id);
    expect(after.settlement.version).toBe(before.settlement.version + 1);
    expect(after.audit).toHaveLength(before.audit.length + 1);
  });

  it('concurrent moves of one settlement: exactly one wins, every other is CONCURRENT_MODIFICATION', async () => {
    const id = await newSettlement('INDIVIDUAL');
    await partnerRequest.request(em(), partners.INDIVIDUAL.actor, id);
    const before = await rows(id);
    // Hold the row so that every contender reads the same version before any can claim it.
    const holder = em();
    await holder.begin();
    await holder.execute('select id from settlement where id = ? for update', [id]);
    const [{ pid }] = await holder.execute<[{ pid: number }]>('select pg_backend_pid() as pid');
    const contenders = Array.from({ length: 5 }, () =>
      statusChange.changeStatus(em(), admin, id, { status: 'ADVERTISER_PAID' }).then(
        () => 'won',
        (error: { code?: string }) => error.code,
      ),
    );
    await untilBlockedBy(pid, contenders.length);
    await holder.commit();
    const outcomes = await Promise.all(contenders);
    expect(outcomes.sort()).toEqual([
      'CONCURRENT_MODIFICATION',
      'CONCURRENT_MODIFICATION',
      'CONCURRENT_MODIFICATION',
      'CONCURRENT_MODIFICATION',
      'won',
    ]);
    const after = await rows(id);
    expect(after.settlement).toMatchObject({
      status: 'ADVERTISER_PAID',
      version: before.settlement.version + 1,
    });
    expect(after.audit).toHaveLength(before.audit.length + 1);
    // Read after the winner committed: the normal answer for the new status.
    await rejects(
      statusChange.changeStatus(em(), admin, id, { status: 'ADVERTISER_PAID' }),
      'INVALID_STATUS_TRANSITION',
    );
  });
});

/** Waits until `count` sessions wait, directly or through one another, on session `pid`. */
async function untilBlockedBy(pid: number, count: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const [row] = await em().execute<[{ n: number }]>(
      `with recursive blocked(pid) as (
         select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))
         union
         select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid))
       ) select count(*)::int as n from blocked`,
      [pid],
    );
    if (row.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${count} sessions never waited on session ${pid}`);
}
