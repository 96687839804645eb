import {
  BigIntType,
  Entity,
  EntityRepositoryType,
  OptionalProps,
  PrimaryKey,
  Property,
} from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalType } from '@campaign/platform';
import { DecimalScalar } from '@campaign/schema';
import {
  bigintRef,
  createdAtColumn,
  money,
  optionalBigintRef,
  optionalDate,
  updatedAtColumn,
} from '../entity-columns.js';
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

  @Field(() => QuotationStatusValues) @Property({ type: 'text' }) status!: QuotationStatus;

  @Field(() => GraphQLSafeInt) @Property(bigintRef('advertiser_id')) advertiserId!: string;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null means the default agency' })
  @Property(optionalBigintRef('agency_id'))
  agencyId!: string | null;

  @Field() @Property({ type: 'text' }) title!: string;

  @Field({ description: 'YYYY-MM-DD' })
  @Property({ type: 'date', fieldName: 'valid_until' })
  validUntil!: string;

  @Field(() => DecimalScalar, { description: 'Sum of the line prices' })
  @Property(money('supply_amount'))
  supplyAmount!: Decimal;
  @Field(() => DecimalScalar, { description: 'VAT 10 %, half up to whole units' })
  @Property(money('vat_amount'))
  vatAmount!: Decimal;
  @Field(() => DecimalScalar) @Property(money('total_amount')) totalAmount!: Decimal;

  /** Optimistic lock: every change claims the version it read (QuotationRepository.claim). */
  @Property({ type: 'integer' }) version!: number;

  /** The `<n>` of `QUO<n>`, derived by PostgreSQL and indexed: the list's order. */
  @Property({
    type: new BigIntType('string'),
    fieldName: 'id_number',
    generated: '(cast(substring(id from 4) as bigint)) stored',
  })
  idNumber!: string;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property(optionalDate('executed_at'))
  executedAt!: Date | null;

  @Field(() => GraphQLDateTimeISO) @Property(createdAtColumn()) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO) @Property(updatedAtColumn()) updatedAt!: Date;
}

@ObjectType({ description: 'One deliverable of one partner, at a price' })
@Entity({ tableName: 'quotation_line' })
export class QuotationLine {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true }) id!: string;

  @Property({ type: 'text', fieldName: 'quotation_id' }) quotationId!: string;

  @Field(() => Int, { description: '1-based position in the quotation' })
  @Property({ type: 'integer', fieldName: 'line_no' })
  lineNo!: number;

  @Field(() => GraphQLSafeInt) @Property(bigintRef('partner_id')) partnerId!: string;

  @Field() @Property({ type: 'text' }) deliverable!: string;

  @Field(() => DecimalScalar) @Property(money('price')) price!: Decimal;

  @Field(() => DecimalScalar, { nullable: true, description: 'Percent; null: the partner rate' })
  @Property({ type: DecimalType, fieldName: 'commission_rate', nullable: true })
  commissionRate!: Decimal | null;

  @Field(() => ID, { nullable: true, description: 'The campaign its execution created' })
  @Property({ type: 'text', fieldName: 'campaign_id', nullable: true })
  campaignId!: string | null;
}
