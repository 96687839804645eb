import { Entity, OptionalProps, Property } from '@mikro-orm/core';
import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { OptionalTextColumn, SerialIdColumn, TextColumn } from '../../kernel/entity-columns.js';

/**
 * One append-only entry of the change audit of agencies, campaigns and quotations (DESIGN S8):
 * who changed what, when, and the changed fields before and after. Settlements keep their own
 * trail (`settlement_audit`), whose entries carry statuses and types.
 */
@ObjectType({ description: 'A change of an agency, campaign or quotation (DESIGN S8).' })
@Entity({ tableName: 'change_audit' })
export class ChangeAuditEntry {
  /** Set by the database (its clock) when the entry is appended. */
  [OptionalProps]?: 'createdAt';

  @SerialIdColumn() id!: string;

  @TextColumn('entity_type', 'AGENCY, CAMPAIGN or QUOTATION') entityType!: string;

  @Field(() => ID) @Property({ type: 'text', fieldName: 'entity_id' }) entityId!: string;

  @TextColumn(undefined, 'CREATED, UPDATED, DEACTIVATED, STATUS_CHANGED, EXECUTED, ...')
  action!: string;

  @TextColumn('actor_subject') actorSubject!: string;
  @TextColumn('actor_role') actorRole!: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The changed fields as they were (null when created)',
  })
  @Property({ type: 'json', nullable: true })
  before!: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The changed fields as they are' })
  @Property({ type: 'json', nullable: true })
  after!: Record<string, unknown> | null;

  @OptionalTextColumn() reason!: string | null;

  @Field(() => GraphQLDateTimeISO)
  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
