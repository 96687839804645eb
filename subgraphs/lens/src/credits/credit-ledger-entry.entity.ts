import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

export type LedgerKind = 'TOP_UP' | 'RESERVE' | 'RELEASE' | 'CHARGE';

/**
 * Append-only: the database refuses updates and deletes of this table. An operation writes
 * RESERVE (-reserved) at start and, when it ends, RELEASE (+reserved) then CHARGE (-charged), so
 * its net effect is exactly -charged and the amounts of a tenant always sum to its balance.
 */
@Entity({ tableName: 'credit_ledger_entry' })
export class CreditLedgerEntry {
  @PrimaryKey({ type: 'bigint' })
  id!: string;

  @Property({ type: 'uuid', fieldName: 'tenant_id' })
  tenantId!: string;

  @Property({ type: 'uuid', fieldName: 'operation_id', nullable: true })
  operationId?: string | null;

  @Property({ type: 'text' })
  kind!: LedgerKind;

  /** Signed: negative takes credits from the balance, positive gives them back. */
  @Property({ type: 'bigint' })
  amount!: string;

  @Property({ type: 'bigint', fieldName: 'balance_after' })
  balanceAfter!: string;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
