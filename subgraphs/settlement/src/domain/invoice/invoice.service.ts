import type { EntityManager } from '@mikro-orm/postgresql';
import type { Decimal } from 'decimal.js';
import { bankAccountOf, type BankAccount } from '../../kernel/money/bank-account.js';
import { nextDocumentNumber } from '../../kernel/numbering/document-counter.repository.js';
import { AdvertiserInvoice, type TaxInvoiceStatus } from './advertiser-invoice.entity.js';
import { calculateInvoiceAmounts } from './invoice-amounts.js';

/** INVOICE_DUE_DAYS by default (issue 23 item 4). */
export const DEFAULT_DUE_DAYS = 14;
const DAY_MS = 86_400_000;

/** What a per-campaign invoice is made of. */
export interface PerCampaignInvoice {
  advertiserId: string;
  advertiserName: string;
  /** The settlement's agency; null means the default agency. */
  agencyId: string | null;
  /** The campaign price: VAT is added on top. */
  supplyAmount: Decimal;
  /** Where the advertiser pays: the agency's deposit account. */
  depositAccount: BankAccount;
  at: Date;
}

/**
 * Advertiser invoices (spec 2.5): created on the admin's issuance request (spec 4.3), never by
 * route. The only writer of `advertiser_invoice`.
 */
export class InvoiceService {
  /** @param dueDays INVOICE_DUE_DAYS: an issued invoice is due this long after its issue. */
  constructor(private readonly dueDays = DEFAULT_DUE_DAYS) {}

  /** A DRAFT invoice with the next INV number of the Seoul month and VAT 10% (S1, S7). */
  async createPerCampaign(
    tx: EntityManager,
    values: PerCampaignInvoice,
  ): Promise<AdvertiserInvoice> {
    const invoice = tx.create(AdvertiserInvoice, {
      invoiceNumber: await nextDocumentNumber(tx, 'INV', values.at),
      advertiserId: values.advertiserId,
      advertiserName: values.advertiserName,
      agencyId: values.agencyId,
      invoiceType: 'PER_CAMPAIGN',
      periodStart: null,
      periodEnd: null,
      ...calculateInvoiceAmounts(values.supplyAmount),
      taxInvoiceNumber: null,
      taxInvoiceFileKey: null,
      taxInvoiceIssuedAt: null,
      taxInvoiceIssuanceKey: null,
      taxInvoiceAttempt: 0,
      taxInvoiceStatus: null,
      taxInvoiceFailureCode: null,
      taxInvoiceFailureMessage: null,
      cancellationTaxInvoiceIssuanceKey: null,
      cancellationTaxInvoiceStatus: null,
      cancellationTaxInvoiceNumber: null,
      cancellationTaxInvoiceIssuedAt: null,
      cancellationTaxInvoiceFailureCode: null,
      cancellationTaxInvoiceFailureMessage: null,
      cancelledForSettlementId: null,
      status: 'DRAFT',
      dueDate: null,
      paidAt: null,
      ...bankAccountOf(values.depositAccount),
    });
    await tx.flush();
    return invoice;
  }

  find(em: EntityManager, id: string | null): Promise<AdvertiserInvoice | null> {
    return id === null ? Promise.resolve(null) : em.findOne(AdvertiserInvoice, { id });
  }

  /** DRAFT: requested, no tax invoice issued yet; ISSUED, PAID and OVERDUE mean money is moving. */
  isIssued(invoice: AdvertiserInvoice | null): boolean {
    return invoice !== null && ['ISSUED', 'PAID', 'OVERDUE'].includes(invoice.status);
  }

  /** Its tax invoice was issued by the provider: a retry-issuance is a 409 from then on. */
  hasTaxInvoice(invoice: AdvertiserInvoice): boolean {
    return invoice.taxInvoiceStatus === 'SUCCESS' || invoice.taxInvoiceNumber !== null;
  }

  /**
   * The issuance key of a forward request (retry-issuance): the current key while its attempt
   * is PENDING (asking again with it returns the same issuance at the provider), otherwise a new
   * attempt. A new key only after a failure means at most one issuance can ever succeed.
   */
  async startTaxInvoice(tx: EntityManager, invoice: AdvertiserInvoice): Promise<string> {
    if (invoice.taxInvoiceStatus === 'PENDING' && invoice.taxInvoiceIssuanceKey) {
      return invoice.taxInvoiceIssuanceKey;
    }
    const attempt = invoice.taxInvoiceAttempt + 1;
    // The invoice number is unique for good (a settlement may get a new invoice after a type
    // change), so the key never collides with an earlier invoice's.
    const key = `${invoice.invoiceNumber}-F${attempt}`;
    await tx.nativeUpdate(
      AdvertiserInvoice,
      { id: invoice.id },
      {
        taxInvoiceIssuanceKey: key,
        taxInvoiceAttempt: attempt,
        taxInvoiceStatus: 'PENDING',
        taxInvoiceFailureCode: null,
        taxInvoiceFailureMessage: null,
      },
    );
    return key;
  }

  /** The invoice whose current forward issuance has this key. */
  findByIssuanceKey(em: EntityManager, key: string): Promise<AdvertiserInvoice | null> {
    return em.findOne(AdvertiserInvoice, { taxInvoiceIssuanceKey: key }, { refresh: true });
  }

  /**
   * The provider issued the tax invoice: number, document and time kept; a DRAFT invoice becomes
   * ISSUED (a PAID one stays PAID, a CANCELLED one CANCELLED: the facts are still kept).
   */
  async recordTaxInvoiceIssued(
    tx: EntityManager,
    invoice: AdvertiserInvoice,
    issued: { taxInvoiceNumber: string; documentUrl: string | null; issuedAt: Date },
  ): Promise<void> {
    await tx.nativeUpdate(
      AdvertiserInvoice,
      { id: invoice.id },
      {
        taxInvoiceStatus: 'SUCCESS',
        taxInvoiceNumber: issued.taxInvoiceNumber,
        taxInvoiceFileKey: issued.documentUrl,
        taxInvoiceIssuedAt: issued.issuedAt,
        taxInvoiceFailureCode: null,
        taxInvoiceFailureMessage: null,
        // Issued now: due INVOICE_DUE_DAYS after the issue (a sweep marks it OVERDUE after).
        ...(invoice.status === 'DRAFT'
          ? {
              status: 'ISSUED' as const,
              dueDate: new Date(issued.issuedAt.getTime() + this.dueDays * DAY_MS),
            }
          : {}),
      },
    );
  }

  /** The provider refused (FAILURE) or withdrew (CANCELLED) the current attempt. */
  async recordTaxInvoiceFailed(
    tx: EntityManager,
    invoice: AdvertiserInvoice,
    failed: {
      status: Exclude<TaxInvoiceStatus, 'PENDING' | 'SUCCESS'>;
      code: string;
      message: string;
    },
  ): Promise<void> {
    await tx.nativeUpdate(
      AdvertiserInvoice,
      { id: invoice.id },
      {
        taxInvoiceStatus: failed.status,
        taxInvoiceFailureCode: failed.code,
        taxInvoiceFailureMessage: failed.message,
      },
    );
  }

  /** The deposit arrived: PAID at `at` (from DRAFT, ISSUED or OVERDUE). A cancelled one stays. */
  async markPaid(tx: EntityManager, invoice: AdvertiserInvoice | null, at: Date): Promise<void> {
    if (!invoice || invoice.status === 'CANCELLED') return;
    await tx.nativeUpdate(AdvertiserInvoice, { id: invoice.id }, { status: 'PAID', paidAt: at });
  }

  /**
   * Cancels the invoice unless another settlement holds it too (`shared`, asked of the settlement
   * side, S6); returns it when cancelled. `settlementId` is remembered: a provider result about
   * its tax invoice arriving later is reported in that settlement's thread.
   */
  async cancelIfOnlyFor(
    tx: EntityManager,
    invoice: AdvertiserInvoice | null,
    settlementId: string,
    shared: (invoiceId: string) => Promise<boolean>,
  ): Promise<AdvertiserInvoice | null> {
    if (!invoice || invoice.status === 'CANCELLED') return null;
    if (await shared(invoice.id)) return null;
    await tx.nativeUpdate(
      AdvertiserInvoice,
      { id: invoice.id },
      { status: 'CANCELLED', cancelledForSettlementId: settlementId },
    );
    return invoice;
  }

  /**
   * The key of the cancellation tax invoice that annuls this invoice's issued one: one stable key
   * per invoice (`<invoice number>-C1`), so however often the request is written or retried, the
   * provider issues one cancellation. Null when one is already asked for or issued.
   */
  async startCancellation(tx: EntityManager, invoice: AdvertiserInvoice): Promise<string | null> {
    if (invoice.cancellationTaxInvoiceStatus !== null) return null;
    const key = `${invoice.invoiceNumber}-C1`;
    await tx.nativeUpdate(
      AdvertiserInvoice,
      { id: invoice.id, cancellationTaxInvoiceStatus: null },
      { cancellationTaxInvoiceIssuanceKey: key, cancellationTaxInvoiceStatus: 'PENDING' },
    );
    return key;
  }

  /** The invoice whose cancellation tax invoice has this key. */
  findByCancellationKey(em: EntityManager, key: string): Promise<AdvertiserInvoice | null> {
    return em.findOne(
      AdvertiserInvoice,
      { cancellationTaxInvoiceIssuanceKey: key },
      { refresh: true },
    );
  }

  /** The provider decided the cancellation tax invoice: issued (number, time) or not (why). */
  async recordCancellation(
    tx: EntityManager,
    invoice: AdvertiserInvoice,
    result:
      | { status: 'SUCCESS'; taxInvoiceNumber: string; issuedAt: Date }
      | { status: 'FAILURE' | 'CANCELLED'; code: string; message: string },
  ): Promise<void> {
    await tx.nativeUpdate(
      AdvertiserInvoice,
      { id: invoice.id },
      result.status === 'SUCCESS'
        ? {
            cancellationTaxInvoiceStatus: 'SUCCESS',
            cancellationTaxInvoiceNumber: result.taxInvoiceNumber,
            cancellationTaxInvoiceIssuedAt: result.issuedAt,
            cancellationTaxInvoiceFailureCode: null,
            cancellationTaxInvoiceFailureMessage: null,
          }
        : {
            cancellationTaxInvoiceStatus: result.status,
            cancellationTaxInvoiceFailureCode: result.code,
            cancellationTaxInvoiceFailureMessage: result.message,
          },
    );
  }
}
