import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { createdAtColumn, optionalText, updatedAtColumn } from '../entity-columns.js';

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
  @Property(optionalText('grant_url'))
  grantUrl!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  @Property({ type: 'timestamptz', fieldName: 'grant_url_expires_at', nullable: true })
  grantUrlExpiresAt!: Date | null;

  @Field(() => String, { nullable: true })
  @Property(optionalText('failure_code'))
  failureCode!: string | null;
  @Field(() => String, { nullable: true })
  @Property(optionalText('failure_message'))
  failureMessage!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The partner's tax invoice (national approval number), once approved",
  })
  @Property(optionalText('tax_invoice_number'))
  taxInvoiceNumber!: string | null;
  @Field(() => String, { nullable: true, description: 'Where the provider shows the document' })
  @Property(optionalText('document_url'))
  documentUrl!: string | null;

  /** How many times issuance was requested for this settlement (the key carries it). */
  @Property({ type: 'integer' }) attempt!: number;

  @Field(() => GraphQLDateTimeISO)
  @Property(createdAtColumn())
  createdAt!: Date;
  @Field(() => GraphQLDateTimeISO)
  @Property(updatedAtColumn())
  updatedAt!: Date;
}
