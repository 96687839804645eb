import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A customer of the lens API: a plan, the operations it may call, and a credit balance. */
@Entity({ tableName: 'tenant' })
export class Tenant {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  plan!: string;

  /** Operation names this tenant may call; `*` means every operation. */
  @Property({ type: 'text[]' })
  permissions!: string[];

  @Property({ type: 'integer', fieldName: 'rate_limit_per_minute' })
  rateLimitPerMinute!: number;

  /** Kept by the credit service only, in the same statement as its ledger entry. */
  @Property({ type: 'bigint', fieldName: 'credit_balance' })
  creditBalance!: string;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;

  /** Where the low-balance e-mail goes, and below which balance (both or neither). */
  @Property({ type: 'text', fieldName: 'alert_email', nullable: true })
  alertEmail?: string | null;

  @Property({ type: 'bigint', fieldName: 'alert_below', nullable: true })
  alertBelow?: number | null;

  /** True while the next fall below `alertBelow` should send the e-mail (a top-up re-arms it). */
  @Property({ type: 'boolean', fieldName: 'low_balance_armed' })
  lowBalanceArmed!: boolean;
}
