import { Entity, OptionalProps, Property } from '@mikro-orm/core';
import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { OptionalTextColumn, SerialIdColumn, TextColumn } from '../../kernel/entity-columns.js';

/** One append-only audit entry: who changed what, when, from what to what, and why (S8). */
@ObjectType({ description: 'An entry of the append-only settlement audit trail (DESIGN S8).' })
@Entity({ tableName: 'settlement_audit' })
export class SettlementAuditEntry {
  /** Set by the database (its clock) when the entry is appended. */
  [OptionalProps]?: 'createdAt';

  @SerialIdColumn() id!: string;

  @Field(() => ID) @Property({ type: 'text', fieldName: 'settlement_id' }) settlementId!: string;

  @TextColumn(undefined, 'CREATED, STATUS_CHANGED, TYPE_CHANGED, ISSUANCE_REQUESTED, ...')
  action!: string;

  @TextColumn('actor_subject') actorSubject!: string;
  @TextColumn('actor_role') actorRole!: string;

  @OptionalTextColumn('from_status') fromStatus!: string | null;
  @OptionalTextColumn('to_status') toStatus!: string | null;
  @OptionalTextColumn('from_settlement_type') fromSettlementType!: string | null;
  @OptionalTextColumn('to_settlement_type') toSettlementType!: string | null;

  @OptionalTextColumn() reason!: string | null;

  @Field(() => GraphQLJSONObject, { description: 'Amounts, document numbers and other facts' })
  @Property({ type: 'json' })
  details!: Record<string, unknown>;

  @Field(() => GraphQLDateTimeISO)
  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
