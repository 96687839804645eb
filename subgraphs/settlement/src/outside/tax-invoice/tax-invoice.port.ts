import { OutsideSystemError } from '../errors.js';

/**
 * The port to the tax-invoice provider (DESIGN.md S11). The HTTP adapter
 * (`http-tax-invoice-provider.ts`) speaks the provider protocol of docs/settlement.md, which the
 * simulated provider in `providers/src/tax-invoice` serves. Results decided after an answer
 * arrive by the signed webhook (`webhook-event.ts`).
 *
 * Every request carries an issuance key chosen by the caller (e.g. `SET1-F1`, `SET1-R2`): sending
 * the same request again returns the same issuance, so a retried outbox row never issues twice.
 * Amounts are decimal strings with two decimals; supplyAmount + vat = total.
 */
export interface TaxInvoiceProvider {
  /** Asks for the advertiser's tax invoice, issued by the agency. */
  issueForward(request: ForwardIssuanceRequest): Promise<Issuance>;
  /** Asks a business partner to approve a tax invoice to the agency: PENDING, approval URL. */
  requestReverse(request: ReverseIssuanceRequest): Promise<Issuance>;
  /** A new approval URL (valid 10 minutes) for a PENDING reverse issuance; the old one dies. */
  reissueApprovalUrl(issuanceKey: string): Promise<Issuance>;
  /** The provider's live state, or null when it does not know the key. */
  status(issuanceKey: string): Promise<Issuance | null>;
  /**
   * Withdraws a request still PENDING (repeating it is harmless). An issued tax invoice cannot be
   * withdrawn (CONFLICT `NOT_CANCELLABLE`): it is annulled by {@link issueCancellation}.
   */
  cancel(issuanceKey: string, reason?: string): Promise<Issuance>;
  /**
   * Issues the cancellation tax invoice (수정세금계산서: the same parties, negative amounts) of
   * the issued one `request.originalIssuanceKey`: a new issuance of kind CANCELLATION under the
   * caller's own key, decided like any other (answer, live status or webhook).
   */
  issueCancellation(request: CancellationIssuanceRequest): Promise<Issuance>;
}

export interface CancellationIssuanceRequest {
  issuanceKey: string;
  originalIssuanceKey: string;
  reason?: string;
}

export interface ForwardIssuanceRequest {
  issuanceKey: string;
  /** The agency that issues the invoice. */
  supplier: { name: string; businessNumber: string };
  /** The advertiser; an advertiser without a business number is invoiced by name and e-mail. */
  buyer: { name: string; businessNumber: string | null; email: string };
  supplyAmount: string;
  vat: string;
  total: string;
  /** The item line (e.g. the campaign title). */
  description?: string;
}

export interface ReverseIssuanceRequest {
  issuanceKey: string;
  /** The business partner, who approves the invoice drafted in its name. */
  supplier: { name: string; businessNumber: string; email: string };
  /** The agency that receives it. */
  buyer: { name: string; businessNumber: string };
  supplyAmount: string;
  vat: string;
  total: string;
  description?: string;
}

export type IssuanceKind = 'FORWARD' | 'REVERSE' | 'CANCELLATION';
export type IssuanceStatus = 'PENDING' | 'SUCCESS' | 'FAILURE' | 'CANCELLED';

export interface Issuance {
  issuanceKey: string;
  kind: IssuanceKind;
  status: IssuanceStatus;
  /** Set on SUCCESS: the national approval number and where the document is. */
  taxInvoiceNumber: string | null;
  documentUrl: string | null;
  /** Set on FAILURE. */
  failureCode: string | null;
  failureMessage: string | null;
  /** A PENDING reverse issuance's approval URL and its expiry. */
  approvalUrl: string | null;
  approvalUrlExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type TaxInvoiceProviderFailure =
  /** No answer, a timeout, 5xx, 429 or an unreadable answer: retry later. */
  | 'UNAVAILABLE'
  /** The provider refused our API key (configuration). */
  | 'UNAUTHORIZED'
  /** The request is wrong (400: invalid field, amounts that do not add up). */
  | 'REJECTED'
  /** No issuance with that key. */
  | 'NOT_FOUND'
  /** Not possible in the issuance's state, or the key was used for another request (409). */
  | 'CONFLICT';

export class TaxInvoiceProviderError extends OutsideSystemError {
  readonly system = 'TAX_INVOICE_PROVIDER' as const;

  constructor(
    readonly failure: TaxInvoiceProviderFailure,
    /** The provider's own code (`AMOUNT_MISMATCH`, `NOT_PENDING`, ...), when it gave one. */
    readonly providerCode: string | null,
    message: string,
    retryAfterSeconds: number | null = null,
  ) {
    // A refused key is retryable: once the operator fixes it, the same request goes through.
    super(message, failure === 'UNAVAILABLE' || failure === 'UNAUTHORIZED', retryAfterSeconds);
  }
}
