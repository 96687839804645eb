import { calculateInvoiceAmounts } from '../../domain/invoice/invoice-amounts.js';
import type { AdvertiserInvoice } from '../../domain/invoice/advertiser-invoice.entity.js';
import { bankAccountOf } from '../../kernel/money/bank-account.js';
import { OutboxEvent, TAX_INVOICE_PROVIDER_RECIPIENT } from '../../journal/outbox/outbox.js';
import {
  agencyParty,
  documentAmounts,
  subject,
  supplyAmounts,
  toAdvertiser,
  toPartner,
  toTeamChat,
} from '../settlement-notices.js';
import type { Notice } from '../notice.js';
import type { SettlementStep } from '../settlement-step.js';
import type { IssuanceKind } from '../../outside/tax-invoice/tax-invoice.port.js';

/**
 * The notifications the provider's answers cause (spec section 6, DESIGN S10): the advertiser's
 * tax invoice e-mail, the partner's approval e-mail and the team's failure alert. Each payload
 * carries what the message says, so delivery needs no second look-up.
 */

/** PLATFORM_SETTLEMENT: the agency's tax invoice to the advertiser was issued by the provider. */
export async function taxInvoiceIssuedAdvertiser(
  s: SettlementStep,
  invoice: AdvertiserInvoice,
  issued: { taxInvoiceNumber: string; documentUrl: string | null; issuedAt: Date },
): Promise<Notice> {
  const agency = await s.agency();
  return toAdvertiser(s, OutboxEvent.INVOICE_ISSUED_ADVERTISER, {
    // DIRECT_INVOICE's notice names the issuer and the account too; this one adds the documents.
    issuer: agency.businessName,
    ...bankAccountOf(invoice),
    invoiceNumber: invoice.invoiceNumber,
    taxInvoiceNumber: issued.taxInvoiceNumber,
    documentUrl: issued.documentUrl,
    issuedAt: issued.issuedAt.toISOString(),
    ...documentAmounts(invoice),
  });
}

/** A reverse issuance's approval URL was issued or re-issued: the partner approves through it. */
export async function reverseIssuanceApprovalPartner(
  s: SettlementStep,
  grant: { issuanceKey: string; approvalUrl: string; expiresAt: Date },
): Promise<Notice> {
  return toPartner(s, OutboxEvent.REVERSE_ISSUANCE_APPROVAL_PARTNER, {
    issuanceKey: grant.issuanceKey,
    approvalUrl: grant.approvalUrl,
    expiresAt: grant.expiresAt.toISOString(),
    buyer: agencyParty(await s.agency()),
    ...supplyAmounts(calculateInvoiceAmounts(s.settlement.settlementAmount)),
  });
}

/** The team-chat alert (DESIGN S10 "tax-invoice failure alert"), in the settlement's thread. */
export function taxInvoiceFailed(
  s: SettlementStep,
  failure: {
    kind: IssuanceKind;
    issuanceKey: string;
    status: 'FAILURE' | 'CANCELLED';
    failureCode: string;
    failureMessage: string;
    invoiceNumber: string | null;
  },
): Notice {
  return toTeamChat(s, OutboxEvent.TAX_INVOICE_FAILED, {
    kind: failure.kind,
    issuanceKey: failure.issuanceKey,
    providerStatus: failure.status,
    failureCode: failure.failureCode,
    failureMessage: failure.failureMessage,
    invoiceNumber: failure.invoiceNumber,
    // Who the invoice is to or from, and what the team does next.
    counterparty: failure.kind === 'REVERSE' ? s.partner.name : s.advertiser.name,
    nextStep: NEXT_STEP[failure.kind](s.id),
  });
}

const NEXT_STEP: Record<IssuanceKind, (id: string) => string> = {
  FORWARD: (id) => `retry-issuance of ${id} asks the provider again`,
  REVERSE: (id) =>
    `confirmPartnerInvoiceReceived of ${id} records a tax invoice received otherwise`,
  CANCELLATION: (id) =>
    `the issued tax invoice of ${id} is still live: annul it at the provider by hand`,
};

/** Withdraws a forward request still pending when its invoice was cancelled (issue 23). */
export function forwardWithdrawRequest(s: SettlementStep, issuanceKey: string): Notice {
  return {
    event: OutboxEvent.TAX_INVOICE_FORWARD_WITHDRAW_REQUEST,
    recipient: TAX_INVOICE_PROVIDER_RECIPIENT,
    payload: { ...subject(s), issuanceKey },
  };
}

/** Annuls the issued tax invoice of a cancelled invoice by a cancellation tax invoice. */
export function taxInvoiceCancellationRequest(
  s: SettlementStep,
  invoice: Pick<AdvertiserInvoice, 'invoiceNumber'>,
  cancellation: { issuanceKey: string; originalIssuanceKey: string; taxInvoiceNumber: string },
): Notice {
  return {
    event: OutboxEvent.TAX_INVOICE_CANCELLATION_REQUEST,
    recipient: TAX_INVOICE_PROVIDER_RECIPIENT,
    payload: {
      ...subject(s),
      ...cancellation,
      invoiceNumber: invoice.invoiceNumber,
      reason: `Invoice ${invoice.invoiceNumber} of settlement ${s.id} was cancelled`,
    },
  };
}

/** The cancellation tax invoice was issued: the advertiser's e-mail and the team's message. */
export function taxInvoiceCancelled(
  s: SettlementStep,
  invoice: AdvertiserInvoice,
  cancellation: { taxInvoiceNumber: string; documentUrl: string | null; issuedAt: Date },
): Notice[] {
  const facts = {
    invoiceNumber: invoice.invoiceNumber,
    taxInvoiceNumber: invoice.taxInvoiceNumber,
    cancellationTaxInvoiceNumber: cancellation.taxInvoiceNumber,
    cancellationTaxInvoiceIssuedAt: cancellation.issuedAt.toISOString(),
    documentUrl: cancellation.documentUrl,
    ...documentAmounts(invoice),
  };
  return [
    toAdvertiser(s, OutboxEvent.INVOICE_CANCELLED_ADVERTISER, facts),
    toTeamChat(s, OutboxEvent.TAX_INVOICE_CANCELLED, {
      ...facts,
      advertiserName: s.advertiser.name,
    }),
  ];
}
