import { z } from 'zod';

/**
 * The tax-invoice provider's HTTP protocol, as the simulator serves it (documented in
 * docs/settlement.md, "Tax-invoice provider protocol"). Amounts are decimal strings with two
 * decimals; the caller chooses the issuance key, which makes every request idempotent.
 */

const amount = z.string().regex(/^\d{1,13}\.\d{2}$/, 'a decimal string with two decimals');
const businessNumber = z.string().regex(/^\d{10}$/, '10 digits');
const name = z.string().trim().min(1).max(200);
const email = z.email().max(320);
export const issuanceKeySchema = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/);

const common = {
  issuanceKey: issuanceKeySchema,
  supplyAmount: amount,
  vat: amount,
  total: amount,
  description: z.string().max(500).optional(),
};

/** Forward issuance: the agency (supplier) issues the advertiser (buyer) a tax invoice. */
export const forwardRequestSchema = z.strictObject({
  ...common,
  supplier: z.strictObject({ name, businessNumber }),
  buyer: z.strictObject({ name, businessNumber: businessNumber.nullable().optional(), email }),
});

/**
 * Reverse issuance (역발행): the agency (buyer) asks a business partner (supplier) to approve a
 * tax invoice drafted in the partner's name, through an approval URL sent to the partner.
 */
export const reverseRequestSchema = z.strictObject({
  ...common,
  supplier: z.strictObject({ name, businessNumber, email }),
  buyer: z.strictObject({ name, businessNumber }),
});

export const cancelRequestSchema = z
  .strictObject({ reason: z.string().max(1000).optional() })
  .optional();

/**
 * A cancellation (수정세금계산서, 계약의 해제): an issued tax invoice is never deleted; it is
 * annulled by a second, negative tax invoice that names it. The caller's key makes it idempotent.
 */
export const cancellationRequestSchema = z.strictObject({
  issuanceKey: issuanceKeySchema,
  reason: z.string().max(1000).optional(),
});

export type ForwardRequest = z.infer<typeof forwardRequestSchema>;
export type ReverseRequest = z.infer<typeof reverseRequestSchema>;
export type CancellationRequest = z.infer<typeof cancellationRequestSchema>;
export type IssuanceKind = 'FORWARD' | 'REVERSE' | 'CANCELLATION';
export type IssuanceStatus = 'PENDING' | 'SUCCESS' | 'FAILURE' | 'CANCELLED';

/** What every issuance endpoint answers. */
export interface IssuanceResource {
  issuanceKey: string;
  kind: IssuanceKind;
  status: IssuanceStatus;
  taxInvoiceNumber: string | null;
  documentUrl: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  /** Reverse issuance while PENDING: where the partner approves; valid until the time below. */
  approvalUrl: string | null;
  approvalUrlExpiresAt: string | null;
  /** A CANCELLATION: the issuance it annuls; otherwise null. */
  originalIssuanceKey: string | null;
  /** An issued FORWARD or REVERSE annulled (or being annulled) by this cancellation's key. */
  cancelledBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The webhook body (DESIGN.md section 5, fixed); absent optional fields are left out. */
export interface WebhookEvent {
  eventId: string;
  issuanceKey: string;
  kind: IssuanceKind;
  status: 'SUCCESS' | 'FAILURE' | 'CANCELLED';
  taxInvoiceNumber?: string;
  documentUrl?: string;
  failureCode?: string;
  failureMessage?: string;
  occurredAt: string;
}

export type ErrorCode =
  | 'INVALID_REQUEST'
  | 'AMOUNT_MISMATCH'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'ISSUANCE_KEY_REUSED'
  | 'NOT_PENDING'
  | 'NOT_REVERSE'
  | 'NOT_CANCELLABLE'
  | 'NOT_ISSUED'
  | 'ALREADY_CANCELLED'
  | 'UNAVAILABLE';

export const errorBody = (code: ErrorCode, message: string) => ({ error: { code, message } });

/** Whole cents of an amount string, exact (no floating point touches an amount). */
export const cents = (value: string): bigint => BigInt(value.replace('.', ''));

/**
 * What the simulator does, decided by the counterparty's name (the buyer of a forward issuance,
 * the supplier of a reverse one), case-insensitively: DESIGN.md section 5.
 */
export type Scenario = 'instant' | 'fail' | 'down' | 'twice' | 'manual' | 'normal';

/**
 * `manual_` (beyond DESIGN.md's four) decides nothing by itself: a reverse issuance waits for the
 * partner's answer on the approval page, a forward one stays PENDING. It lets a person (or a
 * whole-stack test) hold an issuance open as long as needed, where the others decide on a timer.
 */
export function scenarioOf(counterpartyName: string): Scenario {
  const lower = counterpartyName.trim().toLowerCase();
  for (const scenario of ['instant', 'fail', 'down', 'twice', 'manual'] as const) {
    if (lower.startsWith(`${scenario}_`)) return scenario;
  }
  return 'normal';
}
