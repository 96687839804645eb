import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalType } from '@campaign/platform';
import { DecimalScalar } from '@campaign/schema';
import { PartnerEntityType } from '../settlement/settlement-types.js';

registerEnumType(PartnerEntityType, { name: 'PartnerEntityType' });

@ObjectType({ description: 'A media partner: uploads content, receives the payout (spec 2.1).' })
@Entity({ tableName: 'partner' })
export class Partner {
  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field() @Property({ type: 'text' }) name!: string;

  @Field(() => PartnerEntityType)
  @Property({ type: 'text', fieldName: 'entity_type' })
  entityType!: PartnerEntityType;

  @Field(() => DecimalScalar, { nullable: true, description: 'Percent; null means the default.' })
  @Property({ type: DecimalType, fieldName: 'commission_rate', nullable: true })
  commissionRate!: Decimal | null;

  @Field() @Property({ type: 'text' }) email!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Business registration number (10 digits); the reverse issuance needs it',
  })
  @Property({ type: 'text', fieldName: 'business_number', nullable: true })
  businessNumber!: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'bank_name', nullable: true })
  bankName!: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'account_number', nullable: true })
  accountNumber!: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'account_holder', nullable: true })
  accountHolder!: string | null;

  /** The partner's social account id in the lens subgraph; resolved as `account` by federation. */
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'account_id', nullable: true })
  accountId!: string | null;
}
