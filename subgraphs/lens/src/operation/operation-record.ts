import type { Price } from './operation-definition.js';
import type { OperationErrorBody, OperationStatus } from './operation.entity.js';

/**
 * An operation as the hot path reads it: the `operation` row straight from node-postgres (no ORM
 * hydration), with the field names of the entity that the envelope is built from.
 */
export interface OperationRecord {
  id: string;
  tenantId: string;
  operationName: string;
  input: unknown;
  inputHash: string;
  status: OperationStatus;
  result: Record<string, unknown> | null;
  error: OperationErrorBody | null;
  /** bigint columns, as strings (as the entity has them). */
  creditsReserved: string;
  creditsCharged: string;
  creditsRefunded: string;
  observedAt: Date | null;
  createdAt: Date;
  /** The price in force when the operation was accepted (null on rows older than prices). */
  price: Price | null;
}

/** The `operation` columns `select *` (and the engine's SQL functions) return. */
export interface OperationRow {
  id: string;
  tenant_id: string;
  operation_name: string;
  input: unknown;
  input_hash: string;
  status: OperationStatus;
  result: Record<string, unknown> | null;
  error: OperationErrorBody | null;
  credits_reserved: string;
  credits_charged: string;
  credits_refunded: string;
  observed_at: string | Date | null;
  created_at: string | Date;
  price_base: number | null;
  price_per_item: number | null;
  /** The `traceparent` of the request that started it (issue 26); null when tracing was off. */
  trace_context?: string | null;
}

/**
 * The columns an operation's envelope (LensOperation) is made of: all a status read sends back.
 * Issue 27: reading `select *` (22 columns, the input's jsonb among them) made PostgreSQL
 * serialise, and node-postgres describe and parse, twice the columns an answer uses.
 */
const ENVELOPE_FIELDS = [
  'id',
  'operation_name',
  'status',
  'result',
  'error',
  'credits_reserved',
  'credits_charged',
  'credits_refunded',
  'observed_at',
  'created_at',
] as const satisfies readonly (keyof OperationRow)[];

/** What `recordOf` reads besides the envelope: the attempt's input, its owner and its price. */
const RECORD_FIELDS = [
  ...ENVELOPE_FIELDS,
  'tenant_id',
  'input',
  'input_hash',
  'price_base',
  'price_per_item',
] as const satisfies readonly (keyof OperationRow)[];

/** The select list of a status read. */
export const ENVELOPE_COLUMNS = ENVELOPE_FIELDS.join(', ');
/** The select list of a read that `recordOf` maps (a start, a replay, a wait while RUNNING). */
export const RECORD_COLUMNS = RECORD_FIELDS.join(', ');

export type EnvelopeRow = Pick<OperationRow, (typeof ENVELOPE_FIELDS)[number]>;
export type RecordRow = Pick<OperationRow, (typeof RECORD_FIELDS)[number]>;

/** An operation as its envelope shows it (a status read). */
export type OperationEnvelope = Pick<
  OperationRecord,
  | 'id'
  | 'operationName'
  | 'status'
  | 'result'
  | 'error'
  | 'creditsReserved'
  | 'creditsCharged'
  | 'creditsRefunded'
  | 'observedAt'
  | 'createdAt'
>;

/** PostgreSQL's timestamptz text (the ORM's pool parses no dates) as a Date, as MikroORM does. */
function dateOf(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

export function envelopeOf(row: EnvelopeRow): OperationEnvelope {
  return {
    id: row.id,
    operationName: row.operation_name,
    status: row.status,
    result: row.result,
    error: row.error,
    creditsReserved: String(row.credits_reserved),
    creditsCharged: String(row.credits_charged),
    creditsRefunded: String(row.credits_refunded),
    observedAt: row.observed_at === null ? null : dateOf(row.observed_at),
    createdAt: dateOf(row.created_at),
  };
}

export function recordOf(row: RecordRow): OperationRecord {
  return {
    ...envelopeOf(row),
    tenantId: row.tenant_id,
    input: row.input,
    inputHash: row.input_hash,
    price:
      row.price_base === null || row.price_per_item === null
        ? null
        : { base: row.price_base, perItem: row.price_per_item },
  };
}
