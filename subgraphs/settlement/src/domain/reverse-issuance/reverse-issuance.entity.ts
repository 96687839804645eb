import { OptionalProps, Property } from '@mikro-orm/core';
import { Field, ID } from 'type-graphql';
import { graphqlEnum, type EnumValue } from '../../kernel/enums.js';
import {
  CreatedAtColumn,
  EnumColumn,
  ExposedEntity,
  OptionalDateColumn,
  OptionalTextColumn,
  SerialIdColumn,
  TextColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';

const reverseIssuanceStatuses = ['PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED'] as const;
export const ReverseIssuanceStatus = graphqlEnum('ReverseIssuanceStatus', reverseIssuanceStatuses);
export type ReverseIssuanceStatus = EnumValue<typeof ReverseIssuanceStatus>;

/** A business partner's tax invoice, reverse-issued through the provider (spec 2.6). */
@ExposedEntity(
  { tableName: 'reverse_issuance' },
  'The reverse-issuance record of one settlement (spec 2.6).',
)
export class ReverseIssuance {
  /** Set by the database or on create: a create need not give them. */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @SerialIdColumn() id!: string;

  @Field(() => ID) @Property({ type: 'text', fieldName: 'settlement_id' }) settlementId!: string;

  @TextColumn('issuance_key', "The tax-invoice provider's issuance key") issuanceKey!: string;

  @EnumColumn(ReverseIssuanceStatus) status!: ReverseIssuanceStatus;

  @OptionalTextColumn('grant_url', 'Approval URL, valid 10 minutes') grantUrl!: string | null;
  @OptionalDateColumn('grant_url_expires_at') grantUrlExpiresAt!: Date | null;

  @OptionalTextColumn('failure_code') failureCode!: string | null;
  @OptionalTextColumn('failure_message') failureMessage!: string | null;

  @OptionalTextColumn(
    'tax_invoice_number',
    "The partner's tax invoice (national approval number), once approved",
  )
  taxInvoiceNumber!: string | null;
  @OptionalTextColumn('document_url', 'Where the provider shows the document')
  documentUrl!: string | null;

  /** How many times issuance was requested for this settlement (the key carries it). */
  @Property({ type: 'integer' }) attempt!: number;

  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn(true) updatedAt!: Date;
}
