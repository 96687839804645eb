import { Field, ObjectType } from 'type-graphql';
import { graphqlEnum, type EnumValue } from '../../kernel/enums.js';

/** The statuses the tax authority knows a registered business in. */
const businessStatuses = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;
export const BusinessRegistrationStatus = graphqlEnum(
  'BusinessStatus',
  businessStatuses,
  "A registered business's status with the tax authority",
);
export type BusinessRegistrationStatus = EnumValue<typeof BusinessRegistrationStatus>;

/** The `data` of `POST /api/public/business/verify`, field for field (DESIGN.md section 5). */
@ObjectType({ description: "The tax authority's answer about one business registration number" })
export class BusinessVerification {
  @Field({ description: 'The 10 digits, without dashes' })
  businessNumber!: string;

  @Field({ description: 'True when the authority knows the number (ACTIVE, SUSPENDED or CLOSED)' })
  registered!: boolean;

  @Field(() => BusinessRegistrationStatus, {
    nullable: true,
    description: 'Null when the number is not registered',
  })
  status!: BusinessRegistrationStatus | null;

  @Field(() => String, {
    nullable: true,
    description: 'YYYY-MM-DD, the closing date of a CLOSED business when the authority gives it',
  })
  closedAt!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The tax type in the authority\'s words, e.g. "부가가치세 일반과세자"',
  })
  taxType!: string | null;
}
