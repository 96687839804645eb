import type { Decimal } from 'decimal.js';
import { Field, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '@campaign/schema';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { PageOf } from '../../kernel/graphql-page.js';
import { Settlement } from './settlement.entity.js';
import { SettlementStatus } from '../../kernel/settlement-types.js';

@ObjectType({ description: 'A page of settlements, newest first' })
export class SettlementPage extends PageOf(Settlement, 'All settlements that match the filters') {}

/** The amounts the partner's summary sums, per status and in total. */
@ObjectType()
abstract class SettlementSums {
  @Field(() => DecimalScalar) campaignPrice!: Decimal;
  @Field(() => DecimalScalar) settlementAmount!: Decimal;
  @Field(() => DecimalScalar) withholdingTaxAmount!: Decimal;
  @Field(() => DecimalScalar) payoutAmount!: Decimal;
}

@ObjectType({ description: 'Count and amount sums of one status' })
export class SettlementStatusSummary extends SettlementSums {
  @Field(() => SettlementStatus) status!: SettlementStatus;
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'GET /api/partner/settlements/summary: per status and in total' })
export class PartnerSettlementSummary extends SettlementSums {
  @Field(() => [SettlementStatusSummary], { description: 'Every status, in order, zeros included' })
  byStatus!: SettlementStatusSummary[];
  @Field(() => Int) totalCount!: number;
}

@ObjectType({ description: 'A reverse-issuance approval URL, valid until expiresAt' })
export class ReverseIssuanceGrant {
  @Field() settlementId!: string;
  @Field() grantUrl!: string;
  @Field(() => GraphQLDateTimeISO) expiresAt!: Date;
}
