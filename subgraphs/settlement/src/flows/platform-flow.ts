import { PlatformError } from '@campaign/schema';
import { bankAccountOf } from '../kernel/money/bank-account.js';
import type { MoveTrigger } from '../domain/settlement/settlement-moves.js';
import type { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';
import * as notices from './settlement-notices.js';
import type { SettlementStep } from './settlement-step.js';
import { TriggerFamily } from './trigger.js';
import { readAction, readComplete, readPartnerInvoice } from './trigger-inputs.js';

/**
 * PLATFORM_SETTLEMENT after the request (spec 3): the advertiser pays the platform or agency,
 * which pays the partner. Each trigger runs in one transaction: checks (scope 404, type 409,
 * move 409, preconditions 409), the claim, then the writes, each by its table's service.
 */
export class PlatformSettlementFlow extends TriggerFamily {
  /**
   * retry-issuance: creates the advertiser invoice once and links it, and asks the provider for
   * the advertiser's tax invoice (again, on a retry: the same issuance key while the provider has
   * not answered, a new one after a failure). No move; the provider's success may move it
   * (tax-invoice/forward-results.ts). A 409 once the tax invoice is issued.
   */
  readonly retryIssuance = this.trigger(readAction, async (step, { reason }) => {
    const { invoices } = this.services;
    step.requireType('PLATFORM_SETTLEMENT', 'retry-issuance');
    step.requireOpen('Issuance can be requested');
    const existing = await invoices.find(step.tx, step.settlement.advertiserInvoiceId);
    if (existing && (existing.status === 'CANCELLED' || invoices.hasTaxInvoice(existing))) {
      const why =
        existing.status === 'CANCELLED'
          ? 'is CANCELLED'
          : `already has its tax invoice ${existing.taxInvoiceNumber ?? ''}`.trimEnd();
      throw new PlatformError(
        'CONFLICT',
        `Invoice ${existing.invoiceNumber} of settlement ${step.id} ${why}; only an invoice ` +
          'still waiting for its tax invoice can be issued.',
        { invoiceStatus: existing.status, taxInvoiceStatus: existing.taxInvoiceStatus },
      );
    }
    await step.claim();
    const invoice = existing ?? (await this.newInvoice(step));
    const issuanceKey = await invoices.startTaxInvoice(step.tx, invoice);
    await step.audit({
      action: 'ISSUANCE_REQUESTED',
      fromStatus: step.settlement.status,
      toStatus: step.settlement.status,
      reason,
      details: {
        invoiceNumber: invoice.invoiceNumber,
        invoiceCreated: !existing,
        issuanceKey,
        ...notices.documentAmounts(invoice),
      },
    });
    const out = [await notices.taxInvoiceIssueRequest(step, invoice, issuanceKey)];
    if (!existing) out.push(notices.paymentRequestAdvertiser(step, invoice));
    await step.notify(out);
  });

  /**
   * The settlement's advertiser invoice, made now and linked to it (spec 4.3: the next INV number,
   * VAT 10 %, the agency's deposit account as it is today). The caller has claimed the row.
   */
  private async newInvoice(step: SettlementStep): Promise<AdvertiserInvoice> {
    const invoice = await this.services.invoices.createPerCampaign(step.tx, {
      advertiserId: step.advertiser.id,
      advertiserName: step.advertiser.name,
      agencyId: step.settlement.agencyId,
      supplyAmount: step.settlement.campaignPrice,
      depositAccount: await step.agency(),
      at: step.now,
    });
    await step.update({ advertiserInvoiceId: String(invoice.id) });
    return invoice;
  }

  /**
   * PATCH status → ADVERTISER_PAID (S3): the deposit is confirmed; advertiser and partner mails.
   * The deposit is booked against the settlement's invoice (issue 23 item 2): one without an
   * invoice gets it now, by the rules of retry-issuance, and its tax invoice is requested. The
   * invoice becomes PAID (from ISSUED or OVERDUE); the advertiser's mail names it and its total.
   */
  readonly confirmAdvertiserPayment = this.trigger(readAction, async (step, { reason }) => {
    const { invoices } = this.services;
    step.requireType('PLATFORM_SETTLEMENT', 'Confirming the deposit (ADVERTISER_PAID)');
    step.assertMove('ADVERTISER_PAID', 'status');
    await step.claim();
    const existing = await invoices.find(step.tx, step.settlement.advertiserInvoiceId);
    const invoice = existing ?? (await this.newInvoice(step));
    const issuanceKey = existing ? null : await invoices.startTaxInvoice(step.tx, invoice);
    const moved = await step.move('ADVERTISER_PAID', 'status', reason, {
      details: {
        invoiceNumber: invoice.invoiceNumber,
        invoiceCreated: !existing,
        ...(issuanceKey ? { issuanceKey } : {}),
        ...notices.documentAmounts(invoice),
      },
    });
    await invoices.markPaid(step.tx, invoice, step.now);
    const out = [
      notices.paymentConfirmedAdvertiser(step, invoice),
      notices.advertiserPaidPartner(step),
      moved.notice,
    ];
    if (issuanceKey) out.push(await notices.taxInvoiceIssueRequest(step, invoice, issuanceKey));
    await step.notify(out);
  });

  /** start-payout: ADVERTISER_PAID → PARTNER_PAYOUT_PROCESSING, with the partner's payout. */
  readonly startPayout = this.trigger(
    readAction,
    async (step, { reason }, via: MoveTrigger = 'start-payout') => {
      const s = step.settlement;
      step.requireType('PLATFORM_SETTLEMENT', 'start-payout');
      step.assertMove('PARTNER_PAYOUT_PROCESSING', via);
      await step.claim();
      // An approved reverse issuance already brought the partner's tax invoice (S4).
      const reverse = step.isBusinessPartner
        ? await this.services.reverseIssuances.find(step.tx, step.id)
        : null;
      const approved = reverse?.status === 'SUCCESS' ? reverse : null;
      const payout = await this.services.payouts.createPerCampaign(step.tx, {
        partnerId: step.partner.id,
        partnerName: step.partner.name,
        settlementAmount: s.settlementAmount,
        withholdingTaxAmount: s.withholdingTaxAmount,
        payoutAmount: s.payoutAmount,
        bankAccount: bankAccountOf(s),
        needsTaxInvoice: step.isBusinessPartner,
        partnerInvoiceReceivedAt: s.partnerInvoiceReceivedAt,
        partnerInvoiceNumber: approved?.taxInvoiceNumber ?? null,
        partnerInvoiceFileKey: approved?.documentUrl ?? null,
        at: step.now,
      });
      const moved = await step.move('PARTNER_PAYOUT_PROCESSING', via, reason, {
        fields: { partnerPayoutId: String(payout.id), processedAt: step.now },
        details: { payoutNumber: payout.payoutNumber, ...notices.documentAmounts(payout) },
      });
      const out = [moved.notice];
      if (step.isBusinessPartner && !s.partnerInvoiceReceivedAt) {
        out.push(await notices.invoiceRequestPartner(step, payout));
      }
      await step.notify(out);
    },
  );

  /**
   * The partner's tax invoice is in (GraphQL `confirmPartnerInvoiceReceived`; S4): recorded on
   * the settlement and its payout. No move.
   */
  readonly confirmPartnerInvoiceReceived = this.trigger(
    readPartnerInvoice,
    async (step, { reason, partnerInvoiceNumber }) => {
      const { payouts } = this.services;
      step.requireType('PLATFORM_SETTLEMENT', 'Confirming the partner tax invoice');
      step.requireOpen("The partner's tax invoice can be confirmed");
      step.requireBusinessPartner();
      const receivedAt = step.settlement.partnerInvoiceReceivedAt;
      if (receivedAt) {
        throw new PlatformError(
          'CONFLICT',
          `The tax invoice of settlement ${step.id} was already recorded at ` +
            `${receivedAt.toISOString()}.`,
        );
      }
      await step.claim();
      await step.update({ partnerInvoiceReceivedAt: step.now });
      const payout = await payouts.find(step.tx, step.settlement.partnerPayoutId);
      await payouts.recordPartnerInvoice(step.tx, payout, {
        receivedAt: step.now,
        partnerInvoiceNumber,
      });
      await step.audit({
        action: 'PARTNER_INVOICE_RECEIVED',
        fromStatus: step.settlement.status,
        toStatus: step.settlement.status,
        reason,
        details: { partnerInvoiceNumber, payoutNumber: payout?.payoutNumber ?? null },
      });
    },
  );

  /**
   * complete: PARTNER_PAYOUT_PROCESSING → SETTLEMENT_COMPLETED; business partners need their
   * tax invoice first (S4). Campaign COMPLETED, payout COMPLETED, partner mail.
   */
  readonly complete = this.trigger(
    readComplete,
    async (step, { reason, transactionId }, via: MoveTrigger = 'complete') => {
      const { campaigns, payouts } = this.services;
      step.requireType('PLATFORM_SETTLEMENT', 'complete');
      step.assertMove('SETTLEMENT_COMPLETED', via);
      if (step.isBusinessPartner && !step.settlement.partnerInvoiceReceivedAt) {
        throw new PlatformError(
          'TAX_INVOICE_NOT_RECEIVED',
          `Settlement ${step.id} cannot be completed: the tax invoice of ${step.partner.entityType} ` +
            `partner ${step.partner.name} has not been received.`,
        );
      }
      const moved = await step.move('SETTLEMENT_COMPLETED', via, reason, {
        fields: { completedAt: step.now },
      });
      await campaigns.markCompleted(step.tx, step.campaign.id);
      const payout = await payouts.find(step.tx, step.settlement.partnerPayoutId);
      await payouts.complete(step.tx, payout, { paidAt: step.now, transactionId });
      await step.notify([
        notices.payoutCompletedPartner(step, payout, transactionId),
        moved.notice,
      ]);
    },
  );
}
