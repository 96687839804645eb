import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { AccountSummary } from '../upstream/upstream.port.js';

/** The latest observation of an account, kept so federation can resolve it without credits. */
@Entity({ tableName: 'account_observation' })
export class AccountObservation {
  @PrimaryKey({ type: 'text', fieldName: 'account_id' })
  accountId!: string;

  @Property({ type: 'text', nullable: true })
  handle?: string | null;

  @Property({ type: 'json' })
  summary!: AccountSummary;

  @Property({ type: 'timestamptz', fieldName: 'observed_at' })
  observedAt!: Date;
}
