import { BigIntType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '@campaign/schema';
import { SettlementStatus, SettlementType } from './settlement-types.js';
import {
  bigintRef,
  createdAtColumn,
  money,
  optionalBigintRef,
  optionalDate,
  optionalText,
  updatedAtColumn,
} from '../entity-columns.js';
import { SettlementRepository } from './settlement.repository.js';

registerEnumType(SettlementStatus, { name: 'SettlementStatus' });

/** The settlement of one campaign, field for field as spec section 2.3. */
@ObjectType()
@Entity({ tableName: 'settlement', repository: () => SettlementRepository })
export class Settlement {
  [EntityRepositoryType]?: SettlementRepository;

  @Field(() => ID, { description: 'SET<n>' }) @PrimaryKey({ type: 'text' }) id!: string;
  @Field(() => ID)
  @Property({ type: 'string', length: 20, fieldName: 'campaign_id' })
  campaignId!: string;
  @Field(() => GraphQLSafeInt)
  @Property(bigintRef('partner_id'))
  partnerId!: string;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null means the default agency' })
  @Property(optionalBigintRef('agency_id'))
  agencyId!: string | null;

  @Field(() => DecimalScalar) @Property(money('campaign_price')) campaignPrice!: Decimal;
  @Field(() => DecimalScalar) @Property(money('commission_rate')) commissionRate!: Decimal;
  @Field(() => DecimalScalar) @Property(money('commission_amount')) commissionAmount!: Decimal;
  @Field(() => DecimalScalar) @Property(money('settlement_amount')) settlementAmount!: Decimal;
  @Field(() => DecimalScalar) @Property(money('withholding_tax_rate')) withholdingTaxRate!: Decimal;
  @Field(() => DecimalScalar)
  @Property(money('withholding_tax_amount'))
  withholdingTaxAmount!: Decimal;
  @Field(() => DecimalScalar) @Property(money('payout_amount')) payoutAmount!: Decimal;

  @Field(() => SettlementStatus) @Property({ type: 'text' }) status!: SettlementStatus;
  @Field(() => SettlementType)
  @Property({ type: 'text', fieldName: 'settlement_type' })
  settlementType!: SettlementType;

  @Field(() => GraphQLSafeInt, { nullable: true })
  @Property(optionalBigintRef('advertiser_invoice_id'))
  advertiserInvoiceId!: string | null;
  @Field(() => GraphQLSafeInt, { nullable: true })
  @Property(optionalBigintRef('partner_payout_id'))
  partnerPayoutId!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('invoice_issued_at'))
  invoiceIssuedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('invoice_paid_at'))
  invoicePaidAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('partner_invoice_received_at'))
  partnerInvoiceReceivedAt!: Date | null;

  @Field(() => String, { nullable: true }) @Property(optionalText('bank_name')) bankName!:
    string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('account_number'))
  accountNumber!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('account_holder'))
  accountHolder!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('requested_at'))
  requestedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('processed_at'))
  processedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('completed_at'))
  completedAt!: Date | null;
  @Field(() => String, { nullable: true }) @Property(optionalText('admin_notes')) adminNotes!:
    string | null;

  /**
   * Optimistic lock (DESIGN S2): every change claims the version it read
   * ({@link SettlementRepository.claim}); of two concurrent changes exactly one wins. Not the
   * ORM's `version: true`: the claim is the one mechanism, taken before anything is written.
   */
  @Property({ type: 'integer' }) version!: number;

  /** The `<n>` of `SET<n>`, derived by PostgreSQL from the id and indexed: the list's order. */
  @Property({
    type: new BigIntType('string'),
    fieldName: 'id_number',
    generated: '(cast(substring(id from 4) as bigint)) stored',
  })
  idNumber!: string;

  @Field(() => GraphQLDateTimeISO)
  @Property(createdAtColumn())
  createdAt!: Date;

  @Property(updatedAtColumn())
  updatedAt!: Date;
}
