import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { Principal } from '../auth/principal.js';
import { Campaign } from '../campaign/campaign.entity.js';
import { InvoiceService } from '../invoice/invoice.service.js';
import { formatMoney } from '../money/money.js';
import { PartnerPayout } from '../payout/partner-payout.entity.js';
import { PayoutService } from '../payout/payout.service.js';
import { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { ReverseIssuanceService } from '../reverse-issuance/reverse-issuance.service.js';
import { optionalText } from '../partner/text-rules.js';
import { calculateSettlementAmounts, type SettlementAmounts } from './settlement-amounts.js';
import { assertMoveAllowed, isTerminal, type MoveTrigger } from './settlement-moves.js';
import * as notices from './settlement-notices.js';
import { type SettlementStep, withSettlement } from './settlement-step.js';
import type { SettlementStatus, SettlementType } from './settlement-types.js';
import type { Settlement } from './settlement.entity.js';
import { SettlementService } from './settlement.service.js';

export interface ActionInput {
  reason?: string | null;
}

const reasonOf = (input?: ActionInput | null) => optionalText(input?.reason, 'reason', 1000);

/** The calculated amounts of a settlement, as the strings its audit entries and updates carry. */
const settlementMoney = (a: SettlementAmounts) => ({
  commissionRate: a.commissionRate.toFixed(2),
  commissionAmount: formatMoney(a.commissionAmount),
  settlementAmount: formatMoney(a.settlementAmount),
  withholdingTaxRate: a.withholdingTaxRate.toFixed(2),
  withholdingTaxAmount: formatMoney(a.withholdingTaxAmount),
  payoutAmount: formatMoney(a.payoutAmount),
});

/**
 * Every trigger of spec section 3, for both settlement types. Each runs in one transaction: the
 * checks (scope 404, type 409, move 409, preconditions 409), the optimistic claim, the change,
 * its audit entry and its outbox rows, or nothing at all.
 */
export class SettlementWorkflow {
  constructor(
    private readonly settlements = new SettlementService(),
    private readonly invoices = new InvoiceService(),
    private readonly payouts = new PayoutService(),
    private readonly reverse = new ReverseIssuanceService(),
  ) {}

  private run(
    em: EntityManager,
    actor: Principal,
    id: string,
    work: (step: SettlementStep) => Promise<void>,
  ): Promise<Settlement> {
    return withSettlement(em, this.settlements, actor, id, work);
  }

  /** Runs a trigger that takes an optional reason: the reason is checked before anything runs. */
  private act(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: ActionInput | null | undefined,
    work: (step: SettlementStep, reason: string | null) => Promise<void>,
  ): Promise<Settlement> {
    const reason = reasonOf(input);
    return this.run(em, actor, id, (step) => work(step, reason));
  }

  /** Throws unless the settlement may move to `to` by `via`. */
  private assertMove(step: SettlementStep, to: SettlementStatus, via: MoveTrigger): void {
    assertMoveAllowed(step.settlement.status, to, {
      settlementType: step.settlement.settlementType,
      via,
    });
  }

  /** Checks the move, claims the row, writes status + fields + the STATUS_CHANGED audit entry. */
  private async move(
    step: SettlementStep,
    to: SettlementStatus,
    via: MoveTrigger,
    reason: string | null,
    fields: Parameters<SettlementStep['update']>[0] = {},
    details: Record<string, unknown> = {},
  ): Promise<SettlementStatus> {
    const from = step.settlement.status;
    assertMoveAllowed(from, to, { settlementType: step.settlement.settlementType, via });
    await step.claim();
    await step.update({ ...fields, status: to });
    await step.audit({
      action: 'STATUS_CHANGED',
      fromStatus: from,
      toStatus: to,
      reason,
      details: { trigger: via, ...details },
    });
    return from;
  }

  /** PATCH .../status: the target status picks the trigger, so its side effects always follow. */
  changeStatus(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: { status: SettlementStatus; reason?: string | null },
  ): Promise<Settlement> {
    switch (input.status) {
      case 'AWAITING_ADVERTISER_PAYMENT':
        return this.request(em, actor, id, input, 'status');
      case 'ADVERTISER_PAID':
        return this.confirmAdvertiserPayment(em, actor, id, input);
      case 'PARTNER_PAYOUT_PROCESSING':
        return this.startPayout(em, actor, id, input, 'status');
      case 'SETTLEMENT_COMPLETED':
        return this.complete(em, actor, id, input, 'status');
      case 'SETTLEMENT_CANCELLED':
        return this.cancel(em, actor, id, input, 'status');
      default: {
        // SETTLEMENT_PENDING is reached only by a type change; no move leads to it.
        const status = input.status;
        return this.run(em, actor, id, async (step) => {
          this.assertMove(step, status, 'status');
        });
      }
    }
  }

  /**
   * Partner request (both types) → AWAITING_ADVERTISER_PAYMENT. Team chat; DIRECT_INVOICE e-mails
   * the advertiser the partner's bank details; a business partner in PLATFORM_SETTLEMENT gets its
   * reverse issuance requested (record PENDING + provider request in the outbox).
   */
  request(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
    via: MoveTrigger = 'request',
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      const from = await this.move(step, 'AWAITING_ADVERTISER_PAYMENT', via, reason, {
        requestedAt: step.now,
      });
      const out = [
        notices.settlementRequested(step),
        notices.statusChanged(step, from, 'AWAITING_ADVERTISER_PAYMENT', reason, via),
      ];
      if (step.settlement.settlementType === 'DIRECT_INVOICE') {
        out.push(notices.directSettlementRequest(step));
      } else if (step.isBusinessPartner) {
        const record = await this.reverse.open(step);
        if (record) out.push(await notices.reverseIssueRequest(step, record));
      }
      await step.notify(out);
    });
  }

  /**
   * retry-issuance (PLATFORM_SETTLEMENT only): creates the advertiser invoice once and links it,
   * and asks the provider for the advertiser's tax invoice (again, on a retry). No move.
   */
  retryIssuance(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      step.requireType('PLATFORM_SETTLEMENT', 'retry-issuance');
      this.requireOpen(step, 'Issuance can be requested');
      const existing = await this.invoices.find(step.tx, step.settlement.advertiserInvoiceId);
      if (existing && existing.status !== 'DRAFT') {
        throw new PlatformError(
          'CONFLICT',
          `Invoice ${existing.invoiceNumber} of settlement ${step.id} is ${existing.status}; ` +
            'only a DRAFT invoice is waiting for its tax invoice.',
          { invoiceStatus: existing.status },
        );
      }
      await step.claim();
      const invoice = existing ?? (await this.invoices.createFor(step));
      if (!existing) await step.update({ advertiserInvoiceId: String(invoice.id) });
      await step.audit({
        action: 'ISSUANCE_REQUESTED',
        fromStatus: step.settlement.status,
        toStatus: step.settlement.status,
        reason,
        details: {
          invoiceNumber: invoice.invoiceNumber,
          invoiceCreated: !existing,
          ...notices.documentAmounts(invoice),
        },
      });
      const out = [await notices.taxInvoiceIssueRequest(step, invoice)];
      if (!existing) out.push(notices.paymentRequestAdvertiser(step, invoice));
      await step.notify(out);
    });
  }

  /** PATCH status → ADVERTISER_PAID (S3): the deposit is confirmed; advertiser and partner mails. */
  confirmAdvertiserPayment(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      step.requireType('PLATFORM_SETTLEMENT', 'Confirming the deposit (ADVERTISER_PAID)');
      const from = await this.move(step, 'ADVERTISER_PAID', 'status', reason);
      const invoice = await this.invoices.find(step.tx, step.settlement.advertiserInvoiceId);
      if (invoice && invoice.status !== 'CANCELLED') {
        await step.tx.nativeUpdate(
          AdvertiserInvoice,
          { id: invoice.id },
          { status: 'PAID', paidAt: step.now },
        );
      }
      await step.notify([
        notices.paymentConfirmedAdvertiser(step, invoice),
        notices.advertiserPaidPartner(step),
        notices.statusChanged(step, from, 'ADVERTISER_PAID', reason, 'status'),
      ]);
    });
  }

  /** start-payout (PLATFORM_SETTLEMENT): ADVERTISER_PAID → PARTNER_PAYOUT_PROCESSING + payout. */
  startPayout(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
    via: MoveTrigger = 'start-payout',
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      step.requireType('PLATFORM_SETTLEMENT', 'start-payout');
      this.assertMove(step, 'PARTNER_PAYOUT_PROCESSING', via);
      await step.claim();
      const payout = await this.payouts.createFor(step);
      const from = step.settlement.status;
      await step.update({
        status: 'PARTNER_PAYOUT_PROCESSING',
        partnerPayoutId: String(payout.id),
        processedAt: step.now,
      });
      await step.audit({
        action: 'STATUS_CHANGED',
        fromStatus: from,
        toStatus: 'PARTNER_PAYOUT_PROCESSING',
        reason,
        details: {
          trigger: via,
          payoutNumber: payout.payoutNumber,
          ...notices.documentAmounts(payout),
        },
      });
      const out = [notices.statusChanged(step, from, 'PARTNER_PAYOUT_PROCESSING', reason, via)];
      if (step.isBusinessPartner && !step.settlement.partnerInvoiceReceivedAt) {
        out.push(await notices.invoiceRequestPartner(step, payout));
      }
      await step.notify(out);
    });
  }

  /**
   * The partner's tax invoice is in (GraphQL `confirmPartnerInvoiceReceived`; S4). Records
   * partnerInvoiceReceivedAt on the settlement and its payout. No move.
   */
  confirmPartnerInvoiceReceived(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: { partnerInvoiceNumber?: string | null; reason?: string | null } | null,
  ): Promise<Settlement> {
    const reason = reasonOf(input);
    const partnerInvoiceNumber = optionalText(
      input?.partnerInvoiceNumber,
      'partnerInvoiceNumber',
      100,
    );
    return this.run(em, actor, id, async (step) => {
      step.requireType('PLATFORM_SETTLEMENT', 'Confirming the partner tax invoice');
      this.requireOpen(step, "The partner's tax invoice can be confirmed");
      if (!step.isBusinessPartner) {
        throw new PlatformError(
          'CONFLICT',
          `The partner of settlement ${step.id} is INDIVIDUAL and issues no tax invoice.`,
        );
      }
      if (step.settlement.partnerInvoiceReceivedAt) {
        throw new PlatformError(
          'CONFLICT',
          `The tax invoice of settlement ${step.id} was already recorded at ` +
            `${step.settlement.partnerInvoiceReceivedAt.toISOString()}.`,
        );
      }
      await step.claim();
      await step.update({ partnerInvoiceReceivedAt: step.now });
      const payout = await this.payouts.find(step.tx, step.settlement.partnerPayoutId);
      if (payout) {
        await step.tx.nativeUpdate(
          PartnerPayout,
          { id: payout.id },
          {
            partnerInvoiceReceivedAt: step.now,
            partnerInvoiceNumber,
            ...(payout.status === 'PENDING' ? { status: 'INVOICE_RECEIVED' as const } : {}),
          },
        );
      }
      await step.audit({
        action: 'PARTNER_INVOICE_RECEIVED',
        fromStatus: step.settlement.status,
        toStatus: step.settlement.status,
        reason,
        details: { partnerInvoiceNumber, payoutNumber: payout?.payoutNumber ?? null },
      });
    });
  }

  /**
   * complete (PLATFORM_SETTLEMENT): PARTNER_PAYOUT_PROCESSING → SETTLEMENT_COMPLETED; business
   * partners need their tax invoice first (S4). Campaign COMPLETED, payout COMPLETED, partner mail.
   */
  complete(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: { reason?: string | null; transactionId?: string | null } | null,
    via: MoveTrigger = 'complete',
  ): Promise<Settlement> {
    const reason = reasonOf(input);
    const transactionId = optionalText(
      (input as { transactionId?: string | null } | null)?.transactionId,
      'transactionId',
      100,
    );
    return this.run(em, actor, id, async (step) => {
      step.requireType('PLATFORM_SETTLEMENT', 'complete');
      this.assertMove(step, 'SETTLEMENT_COMPLETED', via);
      if (step.isBusinessPartner && !step.settlement.partnerInvoiceReceivedAt) {
        throw new PlatformError(
          'TAX_INVOICE_NOT_RECEIVED',
          `Settlement ${step.id} cannot be completed: the tax invoice of ${step.partner.entityType} ` +
            `partner ${step.partner.name} has not been received.`,
        );
      }
      const from = await this.move(step, 'SETTLEMENT_COMPLETED', via, reason, {
        completedAt: step.now,
      });
      await step.tx.nativeUpdate(Campaign, { id: step.campaign.id }, { status: 'COMPLETED' });
      const payout = await this.payouts.find(step.tx, step.settlement.partnerPayoutId);
      if (payout) {
        await step.tx.nativeUpdate(
          PartnerPayout,
          { id: payout.id },
          { status: 'COMPLETED', paidAt: step.now, transactionId },
        );
      }
      await step.notify([
        notices.payoutCompletedPartner(step, payout, transactionId),
        notices.statusChanged(step, from, 'SETTLEMENT_COMPLETED', reason, via),
      ]);
    });
  }

  /**
   * cancel from any non-terminal status (S6): the invoice and payout that held only this
   * settlement are cancelled with it, and an open reverse issuance is withdrawn.
   */
  cancel(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
    via: MoveTrigger = 'cancel',
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      const from = step.settlement.status;
      this.assertMove(step, 'SETTLEMENT_CANCELLED', via);
      await step.claim();
      await step.update({ status: 'SETTLEMENT_CANCELLED' });
      const invoice = await this.invoices.find(step.tx, step.settlement.advertiserInvoiceId);
      const payout = await this.payouts.find(step.tx, step.settlement.partnerPayoutId);
      const invoiceCancelled = await this.invoices.cancelIfOnlyFor(step.tx, invoice, step.id);
      const payoutCancelled = await this.payouts.cancelIfOnlyFor(step.tx, payout, step.id);
      const record = await this.reverse.cancelOpen(step);
      await step.audit({
        action: 'STATUS_CHANGED',
        fromStatus: from,
        toStatus: 'SETTLEMENT_CANCELLED',
        reason,
        details: {
          trigger: via,
          cancelledInvoice: invoiceCancelled ? invoice!.invoiceNumber : null,
          cancelledPayout: payoutCancelled ? payout!.payoutNumber : null,
          cancelledReverseIssuance: record?.issuanceKey ?? null,
        },
      });
      const out = [notices.statusChanged(step, from, 'SETTLEMENT_CANCELLED', reason, via)];
      if (record) out.push(notices.reverseCancelRequest(step, record));
      await step.notify(out);
    });
  }

  /** invoice-issued (DIRECT_INVOICE; admin or partner): invoiceIssuedAt recorded, no move. */
  markInvoiceIssued(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      step.requireType('DIRECT_INVOICE', 'invoice-issued');
      const status = step.settlement.status;
      if (status !== 'SETTLEMENT_PENDING' && status !== 'AWAITING_ADVERTISER_PAYMENT') {
        throw new PlatformError(
          'CONFLICT',
          `Settlement ${step.id} is ${status}; the tax invoice can be marked issued only in ` +
            'SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT.',
          { currentStatus: status },
        );
      }
      if (step.settlement.invoiceIssuedAt) {
        throw new PlatformError(
          'CONFLICT',
          `The tax invoice of settlement ${step.id} was already marked issued at ` +
            `${step.settlement.invoiceIssuedAt.toISOString()}.`,
        );
      }
      await step.claim();
      await step.update({ invoiceIssuedAt: step.now });
      await step.audit({
        action: 'INVOICE_ISSUED',
        fromStatus: status,
        toStatus: status,
        reason,
        details: { invoiceIssuedAt: step.now.toISOString() },
      });
      await step.notify([notices.invoiceIssuedAdvertiser(step)]);
    });
  }

  /**
   * invoice-paid (DIRECT_INVOICE; admin or partner): the one exception to the table,
   * AWAITING_ADVERTISER_PAYMENT → SETTLEMENT_COMPLETED at once; campaign COMPLETED.
   */
  markInvoicePaid(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
  ): Promise<Settlement> {
    return this.act(em, actor, id, input, async (step, reason) => {
      step.requireType('DIRECT_INVOICE', 'invoice-paid');
      const from = await this.move(step, 'SETTLEMENT_COMPLETED', 'invoice-paid', reason, {
        invoicePaidAt: step.now,
        completedAt: step.now,
      });
      await step.tx.nativeUpdate(Campaign, { id: step.campaign.id }, { status: 'COMPLETED' });
      await step.notify([
        notices.paymentConfirmedAdvertiser(step, null),
        notices.statusChanged(step, from, 'SETTLEMENT_COMPLETED', reason, 'invoice-paid'),
      ]);
    });
  }

  /**
   * Type change (S5): only in SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT with no issued
   * advertiser invoice (nor, for DIRECT_INVOICE, an issued tax invoice). Recalculates, resets to
   * SETTLEMENT_PENDING, withdraws a DRAFT invoice and an open reverse issuance.
   */
  changeType(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: { settlementType: SettlementType; reason?: string | null },
  ): Promise<Settlement> {
    const reason = reasonOf(input);
    const to = input.settlementType;
    return this.run(em, actor, id, async (step) => {
      const s = step.settlement;
      if (s.settlementType === to) {
        throw new PlatformError('CONFLICT', `Settlement ${step.id} is already ${to}.`);
      }
      const invoice = await this.invoices.find(step.tx, s.advertiserInvoiceId);
      const blocked =
        s.status !== 'SETTLEMENT_PENDING' && s.status !== 'AWAITING_ADVERTISER_PAYMENT'
          ? `it is ${s.status}`
          : this.invoices.isIssued(invoice)
            ? `its advertiser invoice ${invoice!.invoiceNumber} is ${invoice!.status}`
            : s.invoiceIssuedAt
              ? 'its tax invoice was already issued'
              : null;
      if (blocked) {
        throw new PlatformError(
          'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
          `The type of settlement ${step.id} cannot change: ${blocked}. A type change is allowed ` +
            'only in SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT before any invoice is issued.',
          { currentStatus: s.status },
        );
      }
      const amounts = calculateSettlementAmounts({
        campaignPrice: s.campaignPrice,
        settlementType: to,
        partnerEntityType: step.partner.entityType,
        campaignCommissionRate: step.campaign.commissionRate,
        partnerCommissionRate: step.partner.commissionRate,
      });
      await step.claim();
      const invoiceCancelled = await this.invoices.cancelIfOnlyFor(step.tx, invoice, step.id);
      const record = await this.reverse.cancelOpen(step);
      const money = settlementMoney(amounts);
      await step.update({
        settlementType: to,
        status: 'SETTLEMENT_PENDING',
        requestedAt: null,
        advertiserInvoiceId: null,
        ...money,
      });
      await step.tx.nativeUpdate(Campaign, { id: step.campaign.id }, { settlementType: to });
      await step.audit({
        action: 'TYPE_CHANGED',
        fromStatus: s.status,
        toStatus: 'SETTLEMENT_PENDING',
        fromSettlementType: s.settlementType,
        toSettlementType: to,
        reason,
        details: {
          before: settlementMoney(s),
          after: money,
          cancelledInvoice: invoiceCancelled ? invoice!.invoiceNumber : null,
          cancelledReverseIssuance: record?.issuanceKey ?? null,
        },
      });
      const out = [notices.statusChanged(step, s.status, 'SETTLEMENT_PENDING', reason, 'type')];
      if (record) out.push(notices.reverseCancelRequest(step, record));
      await step.notify(out);
    });
  }

  private requireOpen(step: SettlementStep, what: string): void {
    if (isTerminal(step.settlement.status)) {
      throw new PlatformError(
        'CONFLICT',
        `Settlement ${step.id} is ${step.settlement.status}; ${what} only for an open settlement.`,
        { currentStatus: step.settlement.status },
      );
    }
  }
}
