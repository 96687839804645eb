import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Tenant } from './tenant.entity.js';

export type CredentialKind = 'rest' | 'mcp' | 'oauth';

/** An API key is stored only as its SHA-256 hash; the key itself is shown once, at creation. */
@Entity({ tableName: 'api_key' })
export class ApiKey {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @ManyToOne(() => Tenant, { fieldName: 'tenant_id' })
  tenant!: Tenant;

  @Property({ type: 'text' })
  kind!: CredentialKind;

  /** The first characters of the key, safe to show in a console to tell keys apart. */
  @Property({ type: 'text', fieldName: 'key_prefix' })
  keyPrefix!: string;

  @Property({ type: 'text', fieldName: 'key_hash' })
  keyHash!: string;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;

  /** What the console calls it (`REST API key` unless named). */
  @Property({ type: 'text' })
  name!: string;

  /** When it last started a billed call, to the minute (the start statement keeps it). */
  @Property({ type: 'timestamptz', fieldName: 'last_used_at', nullable: true })
  lastUsedAt?: Date | null;

  @Property({ type: 'timestamptz', fieldName: 'revoked_at', nullable: true })
  revokedAt?: Date | null;

  /** Set by rotation: the end of the grace period in which the old secret still works. */
  @Property({ type: 'timestamptz', fieldName: 'expires_at', nullable: true })
  expiresAt?: Date | null;

  /** The operations this credential may call (an OAuth connection's grant); null: all. */
  @Property({ type: 'text[]', nullable: true })
  operations?: string[] | null;

  /** The most credits this credential may spend in all (an OAuth connection's cap); null: no cap. */
  @Property({ type: 'bigint', fieldName: 'credits_cap', nullable: true })
  creditsCap?: string | null;
}
