import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalType } from '@campaign/platform/orm';
import { DecimalScalar } from '@campaign/schema';

export const AdvertiserInvoiceStatus = {
  DRAFT: 'DRAFT',
  ISSUED: 'ISSUED',
  PAID: 'PAID',
  OVERDUE: 'OVERDUE',
  CANCELLED: 'CANCELLED',
} as const;
export type AdvertiserInvoiceStatus =
  (typeof AdvertiserInvoiceStatus)[keyof typeof AdvertiserInvoiceStatus];
registerEnumType(AdvertiserInvoiceStatus, { name: 'AdvertiserInvoiceStatus' });

export const DocumentPeriodType = { PER_CAMPAIGN: 'PER_CAMPAIGN', MONTHLY: 'MONTHLY' } as const;
export type DocumentPeriodType = (typeof DocumentPeriodType)[keyof typeof DocumentPeriodType];
registerEnumType(DocumentPeriodType, { name: 'DocumentPeriodType' });

const optionalDate = (fieldName: string) => ({ type: 'timestamptz', fieldName, nullable: true });
const optionalText = (fieldName: string) => ({ type: 'text', fieldName, nullable: true });

/** What the advertiser is asked to pay for its settlements, field for field as spec 2.5. */
@ObjectType({ description: 'The advertiser invoice of one or more settlements (spec 2.5).' })
@Entity({ tableName: 'advertiser_invoice' })
export class AdvertiserInvoice {
  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field({ description: 'INV-YYYY-MM-NNNN, per Asia/Seoul month, gapless' })
  @Property({ type: 'text', fieldName: 'invoice_number' })
  invoiceNumber!: string;

  @Field(() => GraphQLSafeInt)
  @Property({ type: new BigIntType('string'), fieldName: 'advertiser_id' })
  advertiserId!: string;
  @Field() @Property({ type: 'text', fieldName: 'advertiser_name' }) advertiserName!: string;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null means the default agency' })
  @Property({ type: new BigIntType('string'), fieldName: 'agency_id', nullable: true })
  agencyId!: string | null;

  @Field(() => DocumentPeriodType)
  @Property({ type: 'text', fieldName: 'invoice_type' })
  invoiceType!: DocumentPeriodType;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('period_start'))
  periodStart!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('period_end'))
  periodEnd!: Date | null;

  @Field(() => DecimalScalar, { description: 'Supply amount' })
  @Property({ type: DecimalType })
  subtotal!: Decimal;
  @Field(() => DecimalScalar, { description: 'VAT 10%, rounded half up to whole units' })
  @Property({ type: DecimalType, fieldName: 'tax_amount' })
  taxAmount!: Decimal;
  @Field(() => DecimalScalar)
  @Property({ type: DecimalType, fieldName: 'total_amount' })
  totalAmount!: Decimal;

  @Field(() => String, { nullable: true })
  @Property(optionalText('tax_invoice_number'))
  taxInvoiceNumber!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('tax_invoice_file_key'))
  taxInvoiceFileKey!: string | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('tax_invoice_issued_at'))
  taxInvoiceIssuedAt!: Date | null;

  @Field(() => AdvertiserInvoiceStatus)
  @Property({ type: 'text' })
  status!: AdvertiserInvoiceStatus;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('due_date'))
  dueDate!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('paid_at'))
  paidAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Deposit account snapshot (agency)' })
  @Property(optionalText('bank_name'))
  bankName!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('account_number'))
  accountNumber!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('account_holder'))
  accountHolder!: string | null;

  @Field(() => GraphQLDateTimeISO)
  @Property({ type: 'timestamptz', fieldName: 'created_at', onCreate: () => new Date() })
  createdAt!: Date;
  @Property({
    type: 'timestamptz',
    fieldName: 'updated_at',
    onCreate: () => new Date(),
    onUpdate: () => new Date(),
  })
  updatedAt!: Date;
}
