import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalType } from '@campaign/platform';
import { DecimalScalar } from '@campaign/schema';
import {
  bigintRef,
  createdAtColumn,
  money,
  optionalBigintRef,
  optionalDate,
  optionalText,
  updatedAtColumn,
} from '../entity-columns.js';

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

/** Where the provider stands with the invoice's current forward issuance (null: never asked). */
export const TaxInvoiceStatus = {
  PENDING: 'PENDING',
  SUCCESS: 'SUCCESS',
  FAILURE: 'FAILURE',
  CANCELLED: 'CANCELLED',
} as const;
export type TaxInvoiceStatus = (typeof TaxInvoiceStatus)[keyof typeof TaxInvoiceStatus];
registerEnumType(TaxInvoiceStatus, { name: 'TaxInvoiceStatus' });

export const DocumentPeriodType = { PER_CAMPAIGN: 'PER_CAMPAIGN', MONTHLY: 'MONTHLY' } as const;
export type DocumentPeriodType = (typeof DocumentPeriodType)[keyof typeof DocumentPeriodType];
registerEnumType(DocumentPeriodType, { name: 'DocumentPeriodType' });

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
  @Property(bigintRef('advertiser_id'))
  advertiserId!: string;
  @Field() @Property({ type: 'text', fieldName: 'advertiser_name' }) advertiserName!: string;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null means the default agency' })
  @Property(optionalBigintRef('agency_id'))
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
  @Property(money('tax_amount'))
  taxAmount!: Decimal;
  @Field(() => DecimalScalar)
  @Property(money('total_amount'))
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

  @Field(() => String, {
    nullable: true,
    description: "The provider's issuance key of the current attempt (SET<n>-F<attempt>)",
  })
  @Property(optionalText('tax_invoice_issuance_key'))
  taxInvoiceIssuanceKey!: string | null;
  /** Attempts so far; a new key (and attempt) only after the previous one failed. */
  @Property({ type: 'integer', fieldName: 'tax_invoice_attempt' })
  taxInvoiceAttempt!: number;
  @Field(() => TaxInvoiceStatus, {
    nullable: true,
    description: 'The provider status of the current attempt; null before retry-issuance',
  })
  @Property(optionalText('tax_invoice_status'))
  taxInvoiceStatus!: TaxInvoiceStatus | null;
  @Field(() => String, { nullable: true, description: 'Why the provider refused (FAILURE)' })
  @Property(optionalText('tax_invoice_failure_code'))
  taxInvoiceFailureCode!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('tax_invoice_failure_message'))
  taxInvoiceFailureMessage!: string | null;

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
  @Property(createdAtColumn())
  createdAt!: Date;
  @Property(updatedAtColumn())
  updatedAt!: Date;
}
