import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { AgencyPeriodFilter, PageOf } from '../../kernel/graphql-page.js';
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
  @Field({ description: 'YYYY-MM-DD, today or later in Asia/Seoul (an earlier day is a 400)' })
  validUntil!: string;
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
export class QuotationFilter extends AgencyPeriodFilter('quotations') {
  @Field(() => QuotationStatusValues, { nullable: true }) status?: QuotationStatus | null;
  @Field(() => ID, { nullable: true }) advertiserId?: string | null;
}

@ObjectType({ description: 'A page of quotations, newest first' })
export class QuotationPage extends PageOf(Quotation, 'All quotations that match the filters') {}

@ObjectType({ description: 'A file: its name, media type and bytes in base64' })
export class QuotationFile {
  @Field() fileName!: string;
  @Field() contentType!: string;
  @Field() base64!: string;
}
