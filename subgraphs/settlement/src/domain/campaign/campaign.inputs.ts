import { Field, InputType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import { SettlementType } from '../../kernel/settlement-types.js';

@InputType()
export class CreateCampaignInput {
  @Field(() => GraphQLSafeInt) partnerId!: number;
  @Field(() => GraphQLSafeInt) advertiserId!: number;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null means the default agency' })
  agencyId?: number | null;
  @Field() title!: string;
  @Field({ description: 'Decimal string, e.g. "1000000.00"' }) price!: string;
  @Field(() => String, { nullable: true, description: 'Percent; overrides the partner rate' })
  commissionRate?: string | null;
  @Field(() => SettlementType, { nullable: true, defaultValue: SettlementType.PLATFORM_SETTLEMENT })
  settlementType?: SettlementType;
}

@InputType({
  description:
    'updateCampaign: the fields to change. agencyId null means the default agency; ' +
    'commissionRate null means the partner rate.',
})
export class UpdateCampaignInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true, description: 'Decimal string, e.g. "1000000.00"' })
  price?: string | null;
  @Field(() => String, { nullable: true, description: 'Percent; null: the partner rate' })
  commissionRate?: string | null;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null: the default agency' })
  agencyId?: number | null;
}
