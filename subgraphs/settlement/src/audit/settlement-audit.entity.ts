import { BigIntType, Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLDateTimeISO, GraphQLJSONObject, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

/** One append-only audit entry: who changed what, when, from what to what, and why (S8). */
@ObjectType({ description: 'An entry of the append-only settlement audit trail (DESIGN S8).' })
@Entity({ tableName: 'settlement_audit' })
export class SettlementAuditEntry {
  /** Set by the database (its clock) when the entry is appended. */
  [OptionalProps]?: 'createdAt';

  @Field(() => GraphQLSafeInt)
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Field(() => ID) @Property({ type: 'text', fieldName: 'settlement_id' }) settlementId!: string;

  @Field({ description: 'CREATED, STATUS_CHANGED, TYPE_CHANGED, ISSUANCE_REQUESTED, ...' })
  @Property({ type: 'text' })
  action!: string;

  @Field() @Property({ type: 'text', fieldName: 'actor_subject' }) actorSubject!: string;
  @Field() @Property({ type: 'text', fieldName: 'actor_role' }) actorRole!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'from_status', nullable: true })
  fromStatus!: string | null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'to_status', nullable: true })
  toStatus!: string | null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'from_settlement_type', nullable: true })
  fromSettlementType!: string | null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', fieldName: 'to_settlement_type', nullable: true })
  toSettlementType!: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  reason!: string | null;

  @Field(() => GraphQLJSONObject, { description: 'Amounts, document numbers and other facts' })
  @Property({ type: 'json' })
  details!: Record<string, unknown>;

  @Field(() => GraphQLDateTimeISO)
  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
