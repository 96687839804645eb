import { Field, InputType } from 'type-graphql';
import { PartnerEntityType } from '../../kernel/settlement-types.js';

/** An optional text field of the partner bodies (null clears it on update). */
const OptionalText = (description?: string) =>
  Field(() => String, { nullable: true, ...(description ? { description } : {}) });

@InputType()
export class CreatePartnerInput {
  @Field() name!: string;
  @Field(() => PartnerEntityType) entityType!: PartnerEntityType;
  @Field(() => String, {
    nullable: true,
    description: 'Percent, e.g. "15.5"; null means the default 20',
  })
  commissionRate?: string | null;
  @Field() email!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Business registration number, 1234567890 or 123-45-67890 (business partners: the ' +
      'reverse issuance of their tax invoice needs it)',
  })
  businessNumber?: string | null;
  @OptionalText() bankName?: string | null;
  @OptionalText() accountNumber?: string | null;
  @OptionalText() accountHolder?: string | null;
  @OptionalText("The partner's social account id (lens)") accountId?: string | null;
}

@InputType({
  description:
    'The fields of createPartner, each optional: a field left out is kept, null clears an ' +
    'optional one; checked by the same rules (issue 23)',
})
export class UpdatePartnerInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => PartnerEntityType, { nullable: true }) entityType?: PartnerEntityType | null;
  @Field(() => String, { nullable: true, description: 'Percent; null means the default 20' })
  commissionRate?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Business registration number, 1234567890 or 123-45-67890',
  })
  businessNumber?: string | null;
  @OptionalText() bankName?: string | null;
  @OptionalText() accountNumber?: string | null;
  @OptionalText() accountHolder?: string | null;
  @OptionalText("The partner's social account id (lens)") accountId?: string | null;
}

@InputType()
export class CreateAdvertiserInput {
  @Field() name!: string;
  @Field() email!: string;
}
