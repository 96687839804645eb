import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Tenant } from '../tenant/tenant.entity.js';

export type OperationStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'RECONCILIATION_REQUIRED';

export interface OperationErrorBody {
  code: string;
  message: string;
  httpStatus: number;
  retryable: boolean;
}

/** One billed execution, keyed by the tenant's Idempotency-Key. */
@Entity({ tableName: 'operation' })
export class Operation {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @ManyToOne(() => Tenant, { fieldName: 'tenant_id' })
  tenant!: Tenant;

  @Property({ type: 'text', fieldName: 'idempotency_key' })
  idempotencyKey!: string;

  @Property({ type: 'text', fieldName: 'operation_name' })
  operationName!: string;

  @Property({ type: 'json' })
  input!: Record<string, unknown>;

  @Property({ type: 'text', fieldName: 'input_hash' })
  inputHash!: string;

  @Property({ type: 'text' })
  status!: OperationStatus;

  @Property({ type: 'json', nullable: true })
  result?: Record<string, unknown> | null;

  @Property({ type: 'json', nullable: true })
  error?: OperationErrorBody | null;

  @Property({ type: 'bigint', fieldName: 'credits_reserved' })
  creditsReserved!: string;

  @Property({ type: 'bigint', fieldName: 'credits_charged' })
  creditsCharged!: string;

  @Property({ type: 'bigint', fieldName: 'credits_refunded' })
  creditsRefunded!: string;

  @Property({ type: 'timestamptz', fieldName: 'observed_at', nullable: true })
  observedAt?: Date | null;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', fieldName: 'updated_at' })
  updatedAt!: Date;
}
