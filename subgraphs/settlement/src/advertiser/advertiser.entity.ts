import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Pays for a campaign and receives the tax invoice.' })
@Entity({ tableName: 'advertiser' })
export class Advertiser {
  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field() @Property({ type: 'text' }) name!: string;
  @Field() @Property({ type: 'text' }) email!: string;
}
