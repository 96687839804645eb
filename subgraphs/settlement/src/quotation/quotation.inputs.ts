import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { QuotationStatus } from './quotation-moves.js';
import { Quotation, QuotationStatusValues } from './quotation.entity.js';

@InputType({ description: 'One line: a partner, its deliverable, the price' })
export class QuotationLineInput {
  @Field(() => GraphQLSafeInt) partnerId!: number;
  @Field() deliverable!: string;
  @Field({ description: 'Decimal string, e.g. "1000000.00" (a number is refused)' }) price!: string;
  @Field(() => String, { nullable: true, description: 'Percent; null: the partner rate' })
  commissionRate?: string | null;
}

@InputType({
  description: 'Body of POST and PUT /api/admin/quotation[/:quoId] and POST .../generate',
})
export class QuotationInput {
  @Field(() => GraphQLSafeInt) advertiserId!: number;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'null: the default agency' })
  agencyId?: number | null;
  @Field() title!: string;
  @Field({ description: 'YYYY-MM-DD' }) validUntil!: string;
  @Field(() => [QuotationLineInput], { description: '1 to 1,000 lines' })
  lines!: QuotationLineInput[];
}

@InputType({ description: 'Body of PATCH /api/admin/quotation/:quoId/status' })
export class ChangeQuotationStatusInput {
  @Field(() => QuotationStatusValues, {
    description: 'EXECUTED runs execute; CANCELLED is the same as DELETE',
  })
  status!: QuotationStatus;
}

/** Filters of GET /api/admin/quotation (spec 4.5: status, advertiser, agency, date). */
@InputType()
export class QuotationFilter {
  @Field(() => QuotationStatusValues, { nullable: true }) status?: QuotationStatus | null;
  @Field(() => ID, { nullable: true }) advertiserId?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The default agency id also matches quotations whose agencyId is null',
  })
  agencyId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'createdAt from: an ISO date (Asia/Seoul day) or date-time with offset',
  })
  from?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'createdAt to (inclusive): an ISO date (Asia/Seoul day) or date-time',
  })
  to?: string | null;
}

@ObjectType({ description: 'A page of quotations, newest first' })
export class QuotationPage {
  @Field(() => [Quotation]) items!: Quotation[];
  @Field(() => String, { nullable: true, description: 'Opaque; null on the last page' })
  nextCursor!: string | null;
  @Field(() => Int, { description: 'All quotations that match the filters' }) total!: number;
}

@ObjectType({ description: 'A file: its name, media type and bytes in base64' })
export class QuotationFile {
  @Field() fileName!: string;
  @Field() contentType!: string;
  @Field() base64!: string;
}
