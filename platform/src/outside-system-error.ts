/** Which outside system failed (log fields, alerts). */
export type OutsideSystem = 'MAIL' | 'TEAM_CHAT' | 'TAX_INVOICE_PROVIDER' | 'TAX_AUTHORITY';

/**
 * The one error every adapter throws, so a caller (the outbox worker, a resolver) decides
 * without knowing the adapter: retry later when `retryable`, give up otherwise. Subclasses add
 * what their port's callers need (an SMTP code, the provider's error code).
 */
export abstract class OutsideSystemError extends Error {
  abstract readonly system: OutsideSystem;

  constructor(
    message: string,
    /** A later attempt can succeed with the same input (outage, timeout, 5xx, 429, 4xx SMTP). */
    readonly retryable: boolean,
    /** The system asked us to wait this long (Retry-After), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
