import type { EmailEvent } from '../outbox.js';
import type { EmailContent, Fact } from './layout.js';
import { present, type PayloadReader } from './payload.js';

/**
 * The notification e-mails of spec section 6 (and the reverse-issuance approval), each in its
 * recipient's terms: the campaign by title, amounts in won with separators, the documents by
 * number, and where money goes. Everything comes from the outbox payload written with the change
 * (settlement-notices.ts), so delivery reads no other table.
 */
type Template = (p: PayloadReader, settlementId: string) => EmailContent;

const campaign = (p: PayloadReader) => `"${p.text('campaignTitle')}"`;

const bankFacts = (p: PayloadReader): Fact[] =>
  present(
    ['Bank', p.optionalText('bankName')],
    ['Account number', p.optionalText('accountNumber')],
    ['Account holder', p.optionalText('accountHolder')],
  );

const advertiser = (p: PayloadReader) => `Dear ${p.text('advertiserName')},`;
const partner = (p: PayloadReader) => `Dear ${p.text('partnerName')},`;

export const emailTemplates: Record<EmailEvent, Template> = {
  PAYMENT_REQUEST_ADVERTISER: (p, settlementId) => ({
    subject: `Payment request ${p.text('invoiceNumber')} for campaign ${campaign(p)}`,
    greeting: advertiser(p),
    paragraphs: [
      `Please pay invoice ${p.text('invoiceNumber')} for the campaign ${campaign(p)} by bank ` +
        'transfer to the deposit account below, quoting the invoice number.',
    ],
    facts: [
      ['Campaign', campaign(p)],
      ['Invoice number', p.text('invoiceNumber')],
      ['Supply amount', p.amount('subtotal')],
      ['VAT', p.amount('taxAmount')],
      ['Total due', p.amount('totalAmount')],
    ],
    sections: [{ title: 'Deposit account', facts: bankFacts(p) }],
    settlementId,
  }),

  DIRECT_SETTLEMENT_REQUEST: (p, settlementId) => ({
    subject: `Direct settlement: please pay ${p.text('partnerName')} for campaign ${campaign(p)}`,
    greeting: advertiser(p),
    paragraphs: [
      `The campaign ${campaign(p)} is settled directly: please pay the partner, ` +
        `${p.text('partnerName')}, to the partner's bank account below. The partner issues ` +
        'the tax invoice to you.',
    ],
    facts: [
      ['Campaign', campaign(p)],
      ['Partner', p.text('partnerName')],
      ['Amount', p.amount('amount')],
    ],
    sections: [{ title: "Partner's bank account", facts: bankFacts(p) }],
    settlementId,
  }),

  INVOICE_ISSUED_ADVERTISER: (p, settlementId) => ({
    subject: `Tax invoice issued for campaign ${campaign(p)}`,
    greeting: advertiser(p),
    paragraphs: [`The tax invoice for the campaign ${campaign(p)} has been issued.`],
    facts: present(
      ['Campaign', campaign(p)],
      ['Issued by', p.optionalText('issuer')],
      ['Invoice number', p.optionalText('invoiceNumber')],
      ['Tax invoice number', p.optionalText('taxInvoiceNumber')],
      ['Supply amount', p.optionalAmount('supplyAmount') ?? p.optionalAmount('subtotal')],
      ['VAT', p.optionalAmount('taxAmount')],
      ['Total', p.optionalAmount('totalAmount')],
      ['Amount', p.optionalAmount('amount')],
      ['Document', p.optionalText('documentUrl')],
    ),
    sections: [{ title: 'Pay to', facts: bankFacts(p) }],
    settlementId,
  }),

  PAYMENT_OVERDUE_ADVERTISER: (p, settlementId) => ({
    subject: `Payment overdue: invoice ${p.text('invoiceNumber')} for campaign ${campaign(p)}`,
    greeting: advertiser(p),
    paragraphs: [
      `Invoice ${p.text('invoiceNumber')} for the campaign ${campaign(p)} was due on ` +
        `${p.text('dueDate')} and we have not received your payment. Please transfer the total ` +
        'to the deposit account below, quoting the invoice number.',
    ],
    facts: [
      ['Campaign', campaign(p)],
      ['Invoice number', p.text('invoiceNumber')],
      ['Due date', p.text('dueDate')],
      ['Total due', p.amount('totalAmount')],
    ],
    sections: [{ title: 'Deposit account', facts: bankFacts(p) }],
    settlementId,
  }),

  INVOICE_CANCELLED_ADVERTISER: (p, settlementId) => ({
    subject: `Invoice ${p.text('invoiceNumber')} cancelled for campaign ${campaign(p)}`,
    greeting: advertiser(p),
    paragraphs: [
      `The settlement of the campaign ${campaign(p)} was cancelled, and with it invoice ` +
        `${p.text('invoiceNumber')}. Its tax invoice ${p.text('taxInvoiceNumber')} is annulled ` +
        `by the cancellation tax invoice ${p.text('cancellationTaxInvoiceNumber')}, issued ` +
        'with the same parties and negative amounts. Nothing is due on this invoice.',
    ],
    facts: present(
      ['Campaign', campaign(p)],
      ['Invoice number', p.text('invoiceNumber')],
      ['Tax invoice annulled', p.text('taxInvoiceNumber')],
      ['Cancellation tax invoice', p.text('cancellationTaxInvoiceNumber')],
      ['Issued at', p.text('cancellationTaxInvoiceIssuedAt')],
      ['Supply amount annulled', p.amount('subtotal')],
      ['VAT annulled', p.amount('taxAmount')],
      ['Total annulled', p.amount('totalAmount')],
      ['Document', p.optionalText('documentUrl')],
    ),
    settlementId,
  }),

  PAYMENT_CONFIRMED_ADVERTISER: (p, settlementId) => ({
    subject: `Payment received for campaign ${campaign(p)}`,
    greeting: advertiser(p),
    paragraphs: [`Thank you: your payment for the campaign ${campaign(p)} has been confirmed.`],
    facts: present(
      ['Campaign', campaign(p)],
      ['Invoice number', p.optionalText('invoiceNumber')],
      ['Amount', p.amount('amount')],
    ),
    settlementId,
  }),

  ADVERTISER_PAID_PARTNER: (p, settlementId) => ({
    subject: `The advertiser has paid for campaign ${campaign(p)}`,
    greeting: partner(p),
    paragraphs: [
      `The advertiser's payment for the campaign ${campaign(p)} has arrived; your payout ` +
        'will be prepared next.',
    ],
    facts: present(
      ['Campaign', campaign(p)],
      ['Campaign price', p.optionalAmount('campaignPrice')],
      ['Commission', p.optionalAmount('commissionAmount')],
      ['Settlement amount', p.amount('settlementAmount')],
      ['Withholding tax', p.amount('withholdingTaxAmount')],
      ['Payout amount', p.amount('payoutAmount')],
    ),
    settlementId,
  }),

  INVOICE_REQUEST_PARTNER: (p, settlementId) => {
    const buyer = p.optionalObject('buyer');
    return {
      subject: `Please issue your tax invoice for payout ${p.text('payoutNumber')}`,
      greeting: partner(p),
      paragraphs: [
        `To receive payout ${p.text('payoutNumber')} for the campaign ${campaign(p)}, please ` +
          'issue your tax invoice to the buyer below for these amounts.',
      ],
      facts: [
        ['Campaign', campaign(p)],
        ['Payout number', p.text('payoutNumber')],
        ['Supply amount', p.amount('supplyAmount')],
        ['VAT', p.amount('taxAmount')],
        ['Total', p.amount('totalAmount')],
      ],
      sections: buyer
        ? [
            {
              title: 'Buyer',
              facts: present(
                ['Name', buyer.optionalText('businessName') ?? buyer.optionalText('name')],
                ['Business number', buyer.optionalText('businessNumber')],
                ['Representative', buyer.optionalText('representativeName')],
                ['E-mail', buyer.optionalText('email')],
              ),
            },
          ]
        : [],
      settlementId,
    };
  },

  PAYOUT_COMPLETED_PARTNER: (p, settlementId) => ({
    subject:
      `Payout ${p.optionalText('payoutNumber') ?? ''} sent: ${p.amount('payoutAmount')}`.replace(
        / {2}/,
        ' ',
      ),
    greeting: partner(p),
    paragraphs: [`Your payout for the campaign ${campaign(p)} has been sent to your account.`],
    facts: present(
      ['Campaign', campaign(p)],
      ['Payout number', p.optionalText('payoutNumber')],
      ['Payout amount', p.amount('payoutAmount')],
      ['Transaction', p.optionalText('transactionId')],
    ),
    sections: [{ title: 'Paid to', facts: bankFacts(p) }],
    settlementId,
  }),

  REVERSE_ISSUANCE_APPROVAL_PARTNER: (p, settlementId) => {
    const url = p.optionalText('grantUrl') ?? p.text('approvalUrl');
    const expires = p.optionalTime('grantUrlExpiresAt') ?? p.optionalTime('expiresAt');
    return {
      subject: `Approve your tax invoice for campaign ${campaign(p)}`,
      greeting: partner(p),
      paragraphs: [
        `We have drafted your tax invoice for the campaign ${campaign(p)} on your behalf ` +
          '(reverse issuance). Please review and approve it with the link below.',
      ],
      facts: present(
        ['Campaign', campaign(p)],
        ['Issuance', p.optionalText('issuanceKey')],
        ['Supply amount', p.optionalAmount('supplyAmount')],
        ['VAT', p.optionalAmount('taxAmount')],
        ['Total', p.optionalAmount('totalAmount')],
        ['Link valid until', expires],
      ),
      action: {
        label: 'Review and approve',
        url,
        note:
          `The link is valid for 10 minutes${expires ? ` (until ${expires})` : ''}; a new one ` +
          'can be requested from the partner console.',
      },
      settlementId,
    };
  },
};
