import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'An intermediary that receives advertiser payments (spec 2.4).' })
@Entity({ tableName: 'agency' })
export class Agency {
  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field() @Property({ type: 'text' }) name!: string;
  @Field() @Property({ type: 'text' }) code!: string;
  @Field() @Property({ type: 'text', fieldName: 'business_name' }) businessName!: string;
  @Field() @Property({ type: 'text', fieldName: 'business_number' }) businessNumber!: string;
  @Field()
  @Property({ type: 'text', fieldName: 'representative_name' })
  representativeName!: string;
  @Field() @Property({ type: 'text', fieldName: 'bank_name' }) bankName!: string;
  @Field() @Property({ type: 'text', fieldName: 'account_number' }) accountNumber!: string;
  @Field() @Property({ type: 'text', fieldName: 'account_holder' }) accountHolder!: string;
  @Field() @Property({ type: 'text' }) email!: string;
  @Field() @Property({ type: 'boolean', fieldName: 'is_default' }) isDefault!: boolean;
  @Field() @Property({ type: 'boolean', fieldName: 'is_active' }) isActive!: boolean;
}
