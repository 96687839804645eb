import { OptionalProps } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { DocumentPeriodType } from '../invoice/advertiser-invoice.entity.js';
import { graphqlEnum, type EnumValue } from '../../kernel/enums.js';
import {
  CreatedAtColumn,
  DocumentNumberColumn,
  EnumColumn,
  ExposedEntity,
  MoneyColumn,
  OptionalDateColumn,
  OptionalTextColumn,
  RefColumn,
  SerialIdColumn,
  TextColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';

const payoutStatuses = [
  'PENDING',
  'INVOICE_RECEIVED',
  'PROCESSING',
  'COMPLETED',
  'CANCELLED',
] as const;
export const PartnerPayoutStatus = graphqlEnum('PartnerPayoutStatus', payoutStatuses);
export type PartnerPayoutStatus = EnumValue<typeof PartnerPayoutStatus>;

/** What the partner is paid for its settlements, field for field as spec 2.5a. */
@ExposedEntity(
  { tableName: 'partner_payout' },
  'The partner payout of one or more settlements (spec 2.5a).',
)
export class PartnerPayout {
  /** Set by the database or on create: a create need not give them. */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @SerialIdColumn() id!: string;

  @DocumentNumberColumn('payout_number', 'PAY') payoutNumber!: string;

  @RefColumn('partner_id') partnerId!: string;
  @TextColumn('partner_name') partnerName!: string;

  @EnumColumn(DocumentPeriodType, 'payout_type') payoutType!: DocumentPeriodType;
  @OptionalDateColumn('period_start') periodStart!: Date | null;
  @OptionalDateColumn('period_end') periodEnd!: Date | null;

  @MoneyColumn(undefined, 'Sum of settlement amounts') subtotal!: Decimal;
  @MoneyColumn('tax_amount', 'Withholding amount') taxAmount!: Decimal;
  @MoneyColumn('total_amount', 'Actual payout: settlement minus withholding') totalAmount!: Decimal;

  @OptionalTextColumn('partner_invoice_number') partnerInvoiceNumber!: string | null;
  @OptionalTextColumn('partner_invoice_file_key') partnerInvoiceFileKey!: string | null;
  @OptionalDateColumn('partner_invoice_received_at') partnerInvoiceReceivedAt!: Date | null;

  @EnumColumn(PartnerPayoutStatus) status!: PartnerPayoutStatus;
  @OptionalDateColumn('paid_at') paidAt!: Date | null;
  @OptionalTextColumn('transaction_id') transactionId!: string | null;

  @OptionalTextColumn('bank_name', 'Partner bank account snapshot') bankName!: string | null;
  @OptionalTextColumn('account_number') accountNumber!: string | null;
  @OptionalTextColumn('account_holder') accountHolder!: string | null;

  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
