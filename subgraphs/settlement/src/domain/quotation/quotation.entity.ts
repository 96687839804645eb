import { Entity, EntityRepositoryType, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  CreatedAtColumn,
  IdNumberColumn,
  EnumColumn,
  MoneyColumn,
  OptionalDateColumn,
  OptionalMoneyColumn,
  OptionalRefColumn,
  RefColumn,
  SerialIdColumn,
  TextColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';
import type { QuotationStatus } from './quotation-moves.js';
import { QuotationRepository } from './quotation.repository.js';

/** The statuses of quotation-moves.ts as a GraphQL enum. */
export const QuotationStatusValues = {
  DRAFT: 'DRAFT',
  SENT: 'SENT',
  ACCEPTED: 'ACCEPTED',
  EXECUTED: 'EXECUTED',
  CANCELLED: 'CANCELLED',
} as const satisfies Record<QuotationStatus, QuotationStatus>;
registerEnumType(QuotationStatusValues, { name: 'QuotationStatus' });

/** A quotation to an advertiser (DESIGN S14); executing it creates one campaign per line. */
@ObjectType({ description: 'A quotation: lines of partner deliverables, VAT 10 %, total (S14)' })
@Entity({ tableName: 'quotation', repository: () => QuotationRepository })
export class Quotation {
  [EntityRepositoryType]?: QuotationRepository;
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'idNumber' | 'version' | 'executedAt';

  @Field(() => ID, { description: 'QUO<n>' }) @PrimaryKey({ type: 'text' }) id!: string;

  @EnumColumn(QuotationStatusValues) status!: QuotationStatus;

  @RefColumn('advertiser_id') advertiserId!: string;

  @OptionalRefColumn('agency_id', 'null means the default agency') agencyId!: string | null;

  @TextColumn() title!: string;

  @Field({ description: 'YYYY-MM-DD' })
  @Property({ type: 'date', fieldName: 'valid_until' })
  validUntil!: string;

  @MoneyColumn('supply_amount', 'Sum of the line prices') supplyAmount!: Decimal;
  @MoneyColumn('vat_amount', 'VAT 10 %, half up to whole units') vatAmount!: Decimal;
  @MoneyColumn('total_amount') totalAmount!: Decimal;

  /** Optimistic lock: every change claims the version it read (QuotationRepository.claim). */
  @Property({ type: 'integer' }) version!: number;

  @IdNumberColumn() idNumber!: string;

  @OptionalDateColumn('executed_at') executedAt!: Date | null;

  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn(true) updatedAt!: Date;
}

@ObjectType({ description: 'One deliverable of one partner, at a price' })
@Entity({ tableName: 'quotation_line' })
export class QuotationLine {
  @SerialIdColumn(false) id!: string;

  @Property({ type: 'text', fieldName: 'quotation_id' }) quotationId!: string;

  @Field(() => Int, { description: '1-based position in the quotation' })
  @Property({ type: 'integer', fieldName: 'line_no' })
  lineNo!: number;

  @RefColumn('partner_id') partnerId!: string;

  @TextColumn() deliverable!: string;

  @MoneyColumn('price') price!: Decimal;

  @OptionalMoneyColumn('commission_rate', 'Percent; null: the partner rate')
  commissionRate!: Decimal | null;

  @Field(() => ID, { nullable: true, description: 'The campaign its execution created' })
  @Property({ type: 'text', fieldName: 'campaign_id', nullable: true })
  campaignId!: string | null;
}
