import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalType } from '@campaign/platform';
import { DecimalScalar } from '@campaign/schema';
import { DocumentPeriodType } from '../invoice/advertiser-invoice.entity.js';
import {
  bigintRef,
  createdAtColumn,
  money,
  optionalDate,
  optionalText,
  updatedAtColumn,
} from '../entity-columns.js';

export const PartnerPayoutStatus = {
  PENDING: 'PENDING',
  INVOICE_RECEIVED: 'INVOICE_RECEIVED',
  PROCESSING: 'PROCESSING',
  COMPLETED: 'COMPLETED',
  CANCELLED: 'CANCELLED',
} as const;
export type PartnerPayoutStatus = (typeof PartnerPayoutStatus)[keyof typeof PartnerPayoutStatus];
registerEnumType(PartnerPayoutStatus, { name: 'PartnerPayoutStatus' });

/** What the partner is paid for its settlements, field for field as spec 2.5a. */
@ObjectType({ description: 'The partner payout of one or more settlements (spec 2.5a).' })
@Entity({ tableName: 'partner_payout' })
export class PartnerPayout {
  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field({ description: 'PAY-YYYY-MM-NNNN, per Asia/Seoul month, gapless' })
  @Property({ type: 'text', fieldName: 'payout_number' })
  payoutNumber!: string;

  @Field(() => GraphQLSafeInt)
  @Property(bigintRef('partner_id'))
  partnerId!: string;
  @Field() @Property({ type: 'text', fieldName: 'partner_name' }) partnerName!: string;

  @Field(() => DocumentPeriodType)
  @Property({ type: 'text', fieldName: 'payout_type' })
  payoutType!: DocumentPeriodType;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('period_start'))
  periodStart!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('period_end'))
  periodEnd!: Date | null;

  @Field(() => DecimalScalar, { description: 'Sum of settlement amounts' })
  @Property({ type: DecimalType })
  subtotal!: Decimal;
  @Field(() => DecimalScalar, { description: 'Withholding amount' })
  @Property(money('tax_amount'))
  taxAmount!: Decimal;
  @Field(() => DecimalScalar, { description: 'Actual payout: settlement minus withholding' })
  @Property(money('total_amount'))
  totalAmount!: Decimal;

  @Field(() => String, { nullable: true })
  @Property(optionalText('partner_invoice_number'))
  partnerInvoiceNumber!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('partner_invoice_file_key'))
  partnerInvoiceFileKey!: string | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('partner_invoice_received_at'))
  partnerInvoiceReceivedAt!: Date | null;

  @Field(() => PartnerPayoutStatus) @Property({ type: 'text' }) status!: PartnerPayoutStatus;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('paid_at'))
  paidAt!: Date | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('transaction_id'))
  transactionId!: string | null;

  @Field(() => String, { nullable: true, description: 'Partner bank account snapshot' })
  @Property(optionalText('bank_name'))
  bankName!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('account_number'))
  accountNumber!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('account_holder'))
  accountHolder!: string | null;

  @Field(() => GraphQLDateTimeISO)
  @Property(createdAtColumn())
  createdAt!: Date;
  @Property(updatedAtColumn())
  updatedAt!: Date;
}
