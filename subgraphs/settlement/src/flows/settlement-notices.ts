import type { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';
import { bankAccountOf } from '../kernel/money/bank-account.js';
import { formatMoney } from '../kernel/money/money.js';
import { OutboxEvent, TAX_INVOICE_PROVIDER_RECIPIENT } from '../journal/outbox/outbox.js';
import type { PartnerPayout } from '../domain/payout/partner-payout.entity.js';
import type { ReverseIssuance } from '../domain/reverse-issuance/reverse-issuance.entity.js';
import { calculateInvoiceAmounts } from '../domain/invoice/invoice-amounts.js';
import type { Agency } from '../domain/agency/agency.entity.js';
import type { Decimal } from 'decimal.js';
import { subject, toTeamChat, type Notice } from './notice.js';
import type { SettlementStep } from './settlement-step.js';

export { subject, toTeamChat };

/**
 * The notifications of spec section 6 and the provider requests, as outbox payloads. Each says
 * what a recipient needs without a second look-up: amounts as decimal strings, names, accounts.
 */

export const agencyParty = (agency: Agency) => ({
  agencyId: agency.id,
  code: agency.code,
  businessName: agency.businessName,
  businessNumber: agency.businessNumber,
  representativeName: agency.representativeName,
  email: agency.email,
});

type Payload = Record<string, unknown>;

/** A mail to the advertiser or the partner: its payload opens with the subject and their name. */
const mailTo =
  (party: 'advertiser' | 'partner') =>
  (s: SettlementStep, event: OutboxEvent, payload: Payload): Notice => ({
    event,
    recipient: s[party].email,
    payload: { ...subject(s), [`${party}Name`]: s[party].name, ...payload },
  });
export const toAdvertiser = mailTo('advertiser');
export const toPartner = mailTo('partner');

/** The three amounts of an invoice or payout, as decimal strings. */
export const documentAmounts = (a: {
  subtotal: Decimal;
  taxAmount: Decimal;
  totalAmount: Decimal;
}) => ({
  subtotal: formatMoney(a.subtotal),
  taxAmount: formatMoney(a.taxAmount),
  totalAmount: formatMoney(a.totalAmount),
});

/** The three amounts of a tax invoice, as decimal strings: the subtotal is its supply amount. */
export const supplyAmounts = (a: Parameters<typeof documentAmounts>[0]) => {
  const { subtotal: supplyAmount, ...tax } = documentAmounts(a);
  return { supplyAmount, ...tax };
};

export function settlementRequested(s: SettlementStep): Notice {
  return toTeamChat(s, OutboxEvent.SETTLEMENT_REQUESTED, {
    partnerId: s.partner.id,
    partnerName: s.partner.name,
    partnerEntityType: s.partner.entityType,
    campaignPrice: formatMoney(s.settlement.campaignPrice),
    settlementAmount: formatMoney(s.settlement.settlementAmount),
    payoutAmount: formatMoney(s.settlement.payoutAmount),
  });
}

/** DIRECT_INVOICE: the advertiser pays the partner, whose bank details it needs. */
export function directSettlementRequest(s: SettlementStep): Notice {
  return toAdvertiser(s, OutboxEvent.DIRECT_SETTLEMENT_REQUEST, {
    partnerName: s.partner.name,
    amount: formatMoney(s.settlement.campaignPrice),
    ...bankAccountOf(s.settlement),
  });
}

export function paymentRequestAdvertiser(s: SettlementStep, invoice: AdvertiserInvoice): Notice {
  return toAdvertiser(s, OutboxEvent.PAYMENT_REQUEST_ADVERTISER, {
    invoiceNumber: invoice.invoiceNumber,
    ...documentAmounts(invoice),
    ...bankAccountOf(invoice),
  });
}

/** Forward issuance: the agency issues the advertiser's tax invoice through the provider. */
export async function taxInvoiceIssueRequest(
  s: SettlementStep,
  invoice: AdvertiserInvoice,
  issuanceKey: string,
): Promise<Notice> {
  return {
    event: OutboxEvent.TAX_INVOICE_ISSUE_REQUEST,
    recipient: TAX_INVOICE_PROVIDER_RECIPIENT,
    payload: {
      ...subject(s),
      issuanceKey,
      invoiceId: String(invoice.id),
      invoiceNumber: invoice.invoiceNumber,
      supplier: agencyParty(await s.agency()),
      buyer: { advertiserId: s.advertiser.id, name: s.advertiser.name, email: s.advertiser.email },
      ...supplyAmounts(invoice),
    },
  };
}

/** Reverse issuance: the platform drafts the business partner's tax invoice for its approval. */
export async function reverseIssueRequest(
  s: SettlementStep,
  record: ReverseIssuance,
): Promise<Notice> {
  const amounts = calculateInvoiceAmounts(s.settlement.settlementAmount);
  return {
    event: OutboxEvent.TAX_INVOICE_REVERSE_ISSUE_REQUEST,
    recipient: TAX_INVOICE_PROVIDER_RECIPIENT,
    payload: {
      ...subject(s),
      issuanceKey: record.issuanceKey,
      supplier: {
        partnerId: s.partner.id,
        name: s.partner.name,
        entityType: s.partner.entityType,
        businessNumber: s.partner.businessNumber,
        email: s.partner.email,
      },
      buyer: agencyParty(await s.agency()),
      ...supplyAmounts(amounts),
    },
  };
}

export function reverseCancelRequest(s: SettlementStep, record: ReverseIssuance): Notice {
  return {
    event: OutboxEvent.TAX_INVOICE_REVERSE_CANCEL_REQUEST,
    recipient: TAX_INVOICE_PROVIDER_RECIPIENT,
    payload: { ...subject(s), issuanceKey: record.issuanceKey },
  };
}

export function paymentConfirmedAdvertiser(
  s: SettlementStep,
  invoice: AdvertiserInvoice | null,
): Notice {
  return toAdvertiser(s, OutboxEvent.PAYMENT_CONFIRMED_ADVERTISER, {
    invoiceNumber: invoice?.invoiceNumber ?? null,
    amount: formatMoney(invoice ? invoice.totalAmount : s.settlement.campaignPrice),
  });
}

export function advertiserPaidPartner(s: SettlementStep): Notice {
  return toPartner(s, OutboxEvent.ADVERTISER_PAID_PARTNER, {
    // The partner's own statement: from the campaign price to what it receives.
    campaignPrice: formatMoney(s.settlement.campaignPrice),
    commissionAmount: formatMoney(s.settlement.commissionAmount),
    settlementAmount: formatMoney(s.settlement.settlementAmount),
    withholdingTaxAmount: formatMoney(s.settlement.withholdingTaxAmount),
    payoutAmount: formatMoney(s.settlement.payoutAmount),
  });
}

/** Asks a business partner for its tax invoice on the settlement amount. */
export async function invoiceRequestPartner(
  s: SettlementStep,
  payout: PartnerPayout,
): Promise<Notice> {
  const amounts = calculateInvoiceAmounts(s.settlement.settlementAmount);
  return toPartner(s, OutboxEvent.INVOICE_REQUEST_PARTNER, {
    payoutNumber: payout.payoutNumber,
    buyer: agencyParty(await s.agency()),
    ...supplyAmounts(amounts),
  });
}

export function payoutCompletedPartner(
  s: SettlementStep,
  payout: PartnerPayout | null,
  transactionId: string | null,
): Notice {
  return toPartner(s, OutboxEvent.PAYOUT_COMPLETED_PARTNER, {
    payoutNumber: payout?.payoutNumber ?? null,
    payoutAmount: formatMoney(s.settlement.payoutAmount),
    ...bankAccountOf(s.settlement),
    transactionId,
  });
}

/** DIRECT_INVOICE: the partner's tax invoice to the advertiser was issued. */
export function invoiceIssuedAdvertiser(s: SettlementStep): Notice {
  return toAdvertiser(s, OutboxEvent.INVOICE_ISSUED_ADVERTISER, {
    issuer: s.partner.name,
    amount: formatMoney(s.settlement.campaignPrice),
    ...bankAccountOf(s.settlement),
  });
}
