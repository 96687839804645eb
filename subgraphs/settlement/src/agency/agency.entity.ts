import {
  BigIntType,
  Entity,
  EntityRepositoryType,
  OptionalProps,
  PrimaryKey,
  Property,
} from '@mikro-orm/core';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { createdAtColumn, updatedAtColumn } from '../entity-columns.js';
import { AgencyRepository } from './agency.repository.js';

@ObjectType({ description: 'An intermediary that receives advertiser payments (spec 2.4).' })
@Entity({ tableName: 'agency', repository: () => AgencyRepository })
export class Agency {
  [EntityRepositoryType]?: AgencyRepository;
  /** Set by the database or by MikroORM when the row is written. */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field() @Property({ type: 'text' }) name!: string;
  @Field({ description: '2-30 letters, digits, _ or -; unique ignoring case' })
  @Property({ type: 'text' })
  code!: string;
  @Field() @Property({ type: 'text', fieldName: 'business_name' }) businessName!: string;
  @Field({ description: '10 digits with a valid check digit' })
  @Property({ type: 'text', fieldName: 'business_number' })
  businessNumber!: string;
  @Field()
  @Property({ type: 'text', fieldName: 'representative_name' })
  representativeName!: string;
  @Field({ description: 'Deposit account of advertiser payments: bank' })
  @Property({ type: 'text', fieldName: 'bank_name' })
  bankName!: string;
  @Field() @Property({ type: 'text', fieldName: 'account_number' }) accountNumber!: string;
  @Field() @Property({ type: 'text', fieldName: 'account_holder' }) accountHolder!: string;
  @Field() @Property({ type: 'text' }) email!: string;
  @Field({ description: 'The default agency: rows whose agencyId is null belong to it' })
  @Property({ type: 'boolean', fieldName: 'is_default' })
  isDefault!: boolean;
  @Field({ description: 'false once deactivated: history kept, no new campaigns' })
  @Property({ type: 'boolean', fieldName: 'is_active' })
  isActive!: boolean;

  @Field(() => GraphQLDateTimeISO) @Property(createdAtColumn()) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO) @Property(updatedAtColumn()) updatedAt!: Date;
}
