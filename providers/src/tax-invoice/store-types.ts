import type {
  ForwardRequest,
  IssuanceKind,
  IssuanceStatus,
  ReverseRequest,
  Scenario,
  WebhookEvent,
} from './protocol.js';

/** The simulated provider's records and what its store answers (store.ts). */

export interface IssuanceRecord {
  issuanceKey: string;
  kind: IssuanceKind;
  status: IssuanceStatus;
  scenario: Scenario;
  /** The request as parsed, serialised: a replay must match it exactly. */
  fingerprint: string;
  /** A cancellation's is the original's parties with the amounts negated. */
  request: ForwardRequest | ReverseRequest;
  /** A CANCELLATION: the issuance it annuls. */
  originalIssuanceKey: string | null;
  /** An issued invoice: the key of the cancellation that annuls it, once asked for. */
  cancelledBy: string | null;
  taxInvoiceNumber: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  approvalToken: string | null;
  approvalUrlExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IssuanceStoreOptions {
  /** How long until a normal request is decided (and its webhook sent), in milliseconds. */
  delayMs: number;
  /** Approval URL validity; 10 minutes by the specification. */
  approvalTtlMs: number;
  now: () => Date;
  /** Where this provider is reached from outside (approval and document URLs start with it). */
  publicUrl: () => string;
  /** Called with each result decided after the answer (twice for `twice_`). */
  onDecided: (event: WebhookEvent, copies: number) => void;
}

export type CreateOutcome =
  | { outcome: 'created' | 'replayed'; record: IssuanceRecord }
  | { outcome: 'conflict'; record: IssuanceRecord };

export type CancellationOutcome =
  | CreateOutcome
  /** The original was not issued (PENDING, FAILURE, CANCELLED) or is itself a cancellation. */
  | { outcome: 'not-issued'; record: IssuanceRecord }
  /** Another key already annuls the original: one invoice is annulled once. */
  | { outcome: 'already-cancelled'; record: IssuanceRecord };
