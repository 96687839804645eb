import { OptionalProps, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { graphqlEnum, type EnumValue } from '../../kernel/enums.js';
import {
  CreatedAtColumn,
  DocumentNumberColumn,
  EnumColumn,
  ExposedEntity,
  MoneyColumn,
  OptionalDateColumn,
  OptionalEnumColumn,
  OptionalRefColumn,
  OptionalTextColumn,
  RefColumn,
  SerialIdColumn,
  TextColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';

const invoiceStatuses = ['DRAFT', 'ISSUED', 'PAID', 'OVERDUE', 'CANCELLED'] as const;
export const AdvertiserInvoiceStatus = graphqlEnum('AdvertiserInvoiceStatus', invoiceStatuses);
export type AdvertiserInvoiceStatus = EnumValue<typeof AdvertiserInvoiceStatus>;

/** Where the provider stands with the invoice's current forward issuance (null: never asked). */
const taxInvoiceStatuses = ['PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED'] as const;
export const TaxInvoiceStatus = graphqlEnum('TaxInvoiceStatus', taxInvoiceStatuses);
export type TaxInvoiceStatus = EnumValue<typeof TaxInvoiceStatus>;

export const DocumentPeriodType = graphqlEnum('DocumentPeriodType', ['PER_CAMPAIGN', 'MONTHLY']);
export type DocumentPeriodType = EnumValue<typeof DocumentPeriodType>;

/** What the advertiser is asked to pay for its settlements, field for field as spec 2.5. */
@ExposedEntity(
  { tableName: 'advertiser_invoice' },
  'The advertiser invoice of one or more settlements (spec 2.5).',
)
export class AdvertiserInvoice {
  /** Set by the database or on create: a create need not give them. */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @SerialIdColumn() id!: string;

  @DocumentNumberColumn('invoice_number', 'INV') invoiceNumber!: string;

  @RefColumn('advertiser_id') advertiserId!: string;
  @TextColumn('advertiser_name') advertiserName!: string;

  @OptionalRefColumn('agency_id', 'null means the default agency') agencyId!: string | null;

  @EnumColumn(DocumentPeriodType, 'invoice_type') invoiceType!: DocumentPeriodType;
  @OptionalDateColumn('period_start') periodStart!: Date | null;
  @OptionalDateColumn('period_end') periodEnd!: Date | null;

  @MoneyColumn(undefined, 'Supply amount') subtotal!: Decimal;
  @MoneyColumn('tax_amount', 'VAT 10%, rounded half up to whole units') taxAmount!: Decimal;
  @MoneyColumn('total_amount') totalAmount!: Decimal;

  @OptionalTextColumn('tax_invoice_number') taxInvoiceNumber!: string | null;
  @OptionalTextColumn('tax_invoice_file_key') taxInvoiceFileKey!: string | null;
  @OptionalDateColumn('tax_invoice_issued_at') taxInvoiceIssuedAt!: Date | null;

  @OptionalTextColumn(
    'tax_invoice_issuance_key',
    "The provider's issuance key of the current attempt (SET<n>-F<attempt>)",
  )
  taxInvoiceIssuanceKey!: string | null;
  /** Attempts so far; a new key (and attempt) only after the previous one failed. */
  @Property({ type: 'integer', fieldName: 'tax_invoice_attempt' })
  taxInvoiceAttempt!: number;
  @OptionalEnumColumn(
    TaxInvoiceStatus,
    'tax_invoice_status',
    'The provider status of the current attempt; null before retry-issuance',
  )
  taxInvoiceStatus!: TaxInvoiceStatus | null;
  @OptionalTextColumn('tax_invoice_failure_code', 'Why the provider refused (FAILURE)')
  taxInvoiceFailureCode!: string | null;
  @OptionalTextColumn('tax_invoice_failure_message') taxInvoiceFailureMessage!: string | null;

  /** Issue 23 item 1: an issued tax invoice of a cancelled invoice is annulled by another. */
  @OptionalTextColumn(
    'cancellation_tax_invoice_issuance_key',
    "The provider's issuance key of the cancellation tax invoice (<invoice number>-C1)",
  )
  cancellationTaxInvoiceIssuanceKey!: string | null;
  @OptionalEnumColumn(
    TaxInvoiceStatus,
    'cancellation_tax_invoice_status',
    'The provider status of the cancellation tax invoice; null while none is needed',
  )
  cancellationTaxInvoiceStatus!: TaxInvoiceStatus | null;
  @OptionalTextColumn(
    'cancellation_tax_invoice_number',
    'The national approval number of the (negative) tax invoice that annuls taxInvoiceNumber',
  )
  cancellationTaxInvoiceNumber!: string | null;
  @OptionalDateColumn('cancellation_tax_invoice_issued_at')
  cancellationTaxInvoiceIssuedAt!: Date | null;
  @OptionalTextColumn('cancellation_tax_invoice_failure_code', 'Why the provider refused it')
  cancellationTaxInvoiceFailureCode!: string | null;
  @OptionalTextColumn('cancellation_tax_invoice_failure_message')
  cancellationTaxInvoiceFailureMessage!: string | null;
  /** The settlement whose cancel or type change cancelled it (a later result reports there). */
  @Property({ type: 'text', fieldName: 'cancelled_for_settlement_id', nullable: true })
  cancelledForSettlementId!: string | null;

  @EnumColumn(AdvertiserInvoiceStatus) status!: AdvertiserInvoiceStatus;
  @OptionalDateColumn('due_date') dueDate!: Date | null;
  @OptionalDateColumn('paid_at') paidAt!: Date | null;

  @OptionalTextColumn('bank_name', 'Deposit account snapshot (agency)') bankName!: string | null;
  @OptionalTextColumn('account_number') accountNumber!: string | null;
  @OptionalTextColumn('account_holder') accountHolder!: string | null;

  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
