import type { Decimal } from 'decimal.js';
import { Field, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '@campaign/schema';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Settlement } from './settlement.entity.js';
import { SettlementStatus } from './settlement-types.js';

@ObjectType({ description: 'A page of settlements, newest first' })
export class SettlementPage {
  @Field(() => [Settlement]) items!: Settlement[];
  @Field(() => String, { nullable: true, description: 'Opaque; null on the last page' })
  nextCursor!: string | null;
  @Field(() => Int, { description: 'All settlements that match the filters' }) total!: number;
}

@ObjectType({ description: 'Count and amount sums of one status' })
export class SettlementStatusSummary {
  @Field(() => SettlementStatus) status!: SettlementStatus;
  @Field(() => Int) count!: number;
  @Field(() => DecimalScalar) campaignPrice!: Decimal;
  @Field(() => DecimalScalar) settlementAmount!: Decimal;
  @Field(() => DecimalScalar) withholdingTaxAmount!: Decimal;
  @Field(() => DecimalScalar) payoutAmount!: Decimal;
}

@ObjectType({ description: 'GET /api/partner/settlements/summary: per status and in total' })
export class PartnerSettlementSummary {
  @Field(() => [SettlementStatusSummary], { description: 'Every status, in order, zeros included' })
  byStatus!: SettlementStatusSummary[];
  @Field(() => Int) totalCount!: number;
  @Field(() => DecimalScalar) campaignPrice!: Decimal;
  @Field(() => DecimalScalar) settlementAmount!: Decimal;
  @Field(() => DecimalScalar) withholdingTaxAmount!: Decimal;
  @Field(() => DecimalScalar) payoutAmount!: Decimal;
}

@ObjectType({ description: 'A reverse-issuance approval URL, valid until expiresAt' })
export class ReverseIssuanceGrant {
  @Field() settlementId!: string;
  @Field() grantUrl!: string;
  @Field(() => GraphQLDateTimeISO) expiresAt!: Date;
}
