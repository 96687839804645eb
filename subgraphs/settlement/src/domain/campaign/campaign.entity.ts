import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { graphqlEnum, type EnumValue } from '../../kernel/enums.js';
import { SettlementType } from '../../kernel/settlement-types.js';
import {
  CreatedAtColumn,
  EnumColumn,
  MoneyColumn,
  OptionalMoneyColumn,
  OptionalRefColumn,
  RefColumn,
  TextColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';

const campaignStatuses = ['CREATED', 'UPLOADED', 'COMPLETED', 'CANCELLED'] as const;
export const CampaignStatus = graphqlEnum('CampaignStatus', campaignStatuses);
export type CampaignStatus = EnumValue<typeof CampaignStatus>;
registerEnumType(SettlementType, { name: 'SettlementType' });

@ObjectType({ description: 'A campaign; marking it UPLOADED creates its one settlement.' })
@Entity({ tableName: 'campaign' })
export class Campaign {
  /** Set when the row is written (by MikroORM, or by the database's defaults on bulk inserts). */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @Field(() => ID, { description: 'CAM<n>' })
  @PrimaryKey({ type: 'string', length: 20 })
  id!: string;

  @RefColumn('partner_id') partnerId!: string;
  @RefColumn('advertiser_id') advertiserId!: string;

  @OptionalRefColumn('agency_id', 'null means the default agency') agencyId!: string | null;

  @TextColumn() title!: string;

  @MoneyColumn() price!: Decimal;

  @OptionalMoneyColumn('commission_rate') commissionRate!: Decimal | null;

  @EnumColumn(SettlementType, 'settlement_type') settlementType!: SettlementType;

  @EnumColumn(CampaignStatus) status!: CampaignStatus;

  @Field(() => ID, { nullable: true, description: 'The quotation whose execution created it' })
  @Property({ type: 'text', fieldName: 'quotation_id', nullable: true })
  quotationId!: string | null;

  @CreatedAtColumn(false) createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
