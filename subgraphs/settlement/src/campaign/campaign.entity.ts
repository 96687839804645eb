import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalType } from '@campaign/platform';
import { DecimalScalar } from '@campaign/schema';
import { SettlementType } from '../settlement/settlement-types.js';
import {
  bigintRef,
  createdAtColumn,
  optionalBigintRef,
  updatedAtColumn,
} from '../entity-columns.js';

export const CampaignStatus = {
  CREATED: 'CREATED',
  UPLOADED: 'UPLOADED',
  COMPLETED: 'COMPLETED',
  CANCELLED: 'CANCELLED',
} as const;
export type CampaignStatus = (typeof CampaignStatus)[keyof typeof CampaignStatus];
registerEnumType(CampaignStatus, { name: 'CampaignStatus' });
registerEnumType(SettlementType, { name: 'SettlementType' });

@ObjectType({ description: 'A campaign; marking it UPLOADED creates its one settlement.' })
@Entity({ tableName: 'campaign' })
export class Campaign {
  /** Set when the row is written (by MikroORM, or by the database's defaults on bulk inserts). */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @Field(() => ID, { description: 'CAM<n>' })
  @PrimaryKey({ type: 'string', length: 20 })
  id!: string;

  @Field(() => GraphQLSafeInt)
  @Property(bigintRef('partner_id'))
  partnerId!: string;
  @Field(() => GraphQLSafeInt)
  @Property(bigintRef('advertiser_id'))
  advertiserId!: string;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null means the default agency' })
  @Property(optionalBigintRef('agency_id'))
  agencyId!: string | null;

  @Field() @Property({ type: 'text' }) title!: string;

  @Field(() => DecimalScalar) @Property({ type: DecimalType }) price!: Decimal;

  @Field(() => DecimalScalar, { nullable: true })
  @Property({ type: DecimalType, fieldName: 'commission_rate', nullable: true })
  commissionRate!: Decimal | null;

  @Field(() => SettlementType)
  @Property({ type: 'text', fieldName: 'settlement_type' })
  settlementType!: SettlementType;

  @Field(() => CampaignStatus) @Property({ type: 'text' }) status!: CampaignStatus;

  @Field(() => ID, { nullable: true, description: 'The quotation whose execution created it' })
  @Property({ type: 'text', fieldName: 'quotation_id', nullable: true })
  quotationId!: string | null;

  @Property(createdAtColumn())
  createdAt!: Date;

  @Property(updatedAtColumn())
  updatedAt!: Date;
}
