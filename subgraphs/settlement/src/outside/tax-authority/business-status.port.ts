import { OutsideSystemError } from '../errors.js';

/**
 * The port to the national tax authority's business-status service (DESIGN.md S12). The adapter
 * (`nts-business-status.ts`) speaks the real service's protocol; the simulated service in
 * `providers/src/tax-authority` speaks it too.
 */
export interface BusinessStatusService {
  /**
   * The status of one 10-digit number (already checked locally: format and check digit).
   * Throws {@link BusinessStatusUnavailableError} when the authority cannot say.
   */
  lookup(businessNumber: string): Promise<BusinessStatus>;
}

/** Exactly the `data` of `POST /api/public/business/verify` (DESIGN.md section 5). */
export interface BusinessStatus {
  businessNumber: string;
  /** True for ACTIVE, SUSPENDED and CLOSED: the authority knows the number. */
  registered: boolean;
  status: 'ACTIVE' | 'SUSPENDED' | 'CLOSED' | null;
  /** YYYY-MM-DD, for a CLOSED business whose closing date the authority gave. */
  closedAt: string | null;
  /** The authority's words, e.g. "부가가치세 일반과세자"; null when not registered. */
  taxType: string | null;
}

export type BusinessStatusFailure =
  /** No answer within the time limit. */
  | 'TIMEOUT'
  /** No connection. */
  | 'UNREACHABLE'
  /** Our service key was refused (configuration). */
  | 'CREDENTIALS_REFUSED'
  /** An error answer (5xx, or the service's own error codes). */
  | 'ERROR_ANSWER'
  /** An answer we cannot read (not JSON, no entry for the number, an unknown status code). */
  | 'BAD_ANSWER';

/**
 * The authority could not tell us: the caller answers 503 PROVIDER_UNAVAILABLE (retryable) and
 * says nothing about the number. Every failure is retryable from the caller's side.
 */
export class BusinessStatusUnavailableError extends OutsideSystemError {
  readonly system = 'TAX_AUTHORITY' as const;
  /** The catalogue code the caller answers with. */
  readonly code = 'PROVIDER_UNAVAILABLE' as const;

  constructor(
    readonly failure: BusinessStatusFailure,
    message: string,
    retryAfterSeconds: number | null = null,
  ) {
    super(message, true, retryAfterSeconds);
  }
}
