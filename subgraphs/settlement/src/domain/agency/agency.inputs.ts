import { Field, InputType, ObjectType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import { PageOf } from '../../kernel/graphql-page.js';
import { Agency } from './agency.entity.js';

@InputType({ description: 'Body of POST /api/admin/agencies: every string field of spec 2.4' })
export class CreateAgencyInput {
  @Field() name!: string;
  @Field({ description: '2-30 letters, digits, _ or -; unique ignoring case' }) code!: string;
  @Field() businessName!: string;
  @Field({ description: '1234567890 or 123-45-67890, with a valid check digit' })
  businessNumber!: string;
  @Field() representativeName!: string;
  @Field() bankName!: string;
  @Field() accountNumber!: string;
  @Field() accountHolder!: string;
  @Field() email!: string;
}

@InputType({
  description: 'Body of PUT /api/admin/agencies/:id: the fields to change (never isActive)',
})
export class UpdateAgencyInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) code?: string | null;
  @Field(() => String, { nullable: true }) businessName?: string | null;
  @Field(() => String, { nullable: true }) businessNumber?: string | null;
  @Field(() => String, { nullable: true }) representativeName?: string | null;
  @Field(() => String, { nullable: true }) bankName?: string | null;
  @Field(() => String, { nullable: true }) accountNumber?: string | null;
  @Field(() => String, { nullable: true }) accountHolder?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
}

@InputType({ description: 'Filters of GET /api/admin/agencies' })
export class AgencyFilter {
  @Field(() => Boolean, { nullable: true, description: 'Only active (true) or inactive (false)' })
  isActive?: boolean | null;
}

@ObjectType({ description: 'A page of agencies, by id (inactive agencies included)' })
export class AgencyPage extends PageOf(Agency, 'All agencies that match') {}

@ObjectType({
  description:
    'GET /api/admin/agencies/:id/settlement-account: the deposit account an advertiser invoice of the agency snapshots',
})
export class AgencySettlementAccount {
  @Field(() => GraphQLSafeInt) agencyId!: string;
  @Field() agencyName!: string;
  @Field() bankName!: string;
  @Field() accountNumber!: string;
  @Field() accountHolder!: string;
}
