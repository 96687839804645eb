import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export const ReverseIssuanceStatus = {
  PENDING: 'PENDING',
  SUCCESS: 'SUCCESS',
  FAILURE: 'FAILURE',
  CANCELLED: 'CANCELLED',
} as const;
export type ReverseIssuanceStatus =
  (typeof ReverseIssuanceStatus)[keyof typeof ReverseIssuanceStatus];
registerEnumType(ReverseIssuanceStatus, { name: 'ReverseIssuanceStatus' });

/** A business partner's tax invoice, reverse-issued through the provider (spec 2.6). */
@ObjectType({ description: 'The reverse-issuance record of one settlement (spec 2.6).' })
@Entity({ tableName: 'reverse_issuance' })
export class ReverseIssuance {
  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field(() => ID) @Property({ type: 'text', fieldName: 'settlement_id' }) settlementId!: string;

  @Field({ description: "The tax-invoice provider's issuance key" })
  @Property({ type: 'text', fieldName: 'issuance_key' })
  issuanceKey!: string;

  @Field(() => ReverseIssuanceStatus)
  @Property({ type: 'text' })
  status!: ReverseIssuanceStatus;

  @Field(() => String, { nullable: true, description: 'Approval URL, valid 10 minutes' })
  @Property({ type: 'text', fieldName: 'grant_url', nullable: true })
  grantUrl!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property({ type: 'timestamptz', fieldName: 'grant_url_expires_at', nullable: true })
  grantUrlExpiresAt!: Date | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'failure_code', nullable: true })
  failureCode!: string | null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'failure_message', nullable: true })
  failureMessage!: string | null;

  /** How many times issuance was requested for this settlement (the key carries it). */
  @Property({ type: 'integer' }) attempt!: number;

  @Field(() => GraphQLDateTimeISO)
  @Property({ type: 'timestamptz', fieldName: 'created_at', onCreate: () => new Date() })
  createdAt!: Date;
  @Field(() => GraphQLDateTimeISO)
  @Property({
    type: 'timestamptz',
    fieldName: 'updated_at',
    onCreate: () => new Date(),
    onUpdate: () => new Date(),
  })
  updatedAt!: Date;
}
