import type { Issuance, IssuanceKind } from '../../outside/tax-invoice/tax-invoice.port.js';
import type { TaxInvoiceWebhookEvent } from '../../outside/tax-invoice/webhook-event.js';

/**
 * What the provider says about one issuance, whichever way it arrived: in the answer to a
 * request, in a status look-up, or by webhook. One shape, so one set of rules applies them
 * (forward-results.ts, reverse-results.ts) and the three paths can never disagree.
 */
export interface IssuanceOutcome extends Omit<Issuance, 'createdAt' | 'updatedAt'> {
  /** When the provider decided (the webhook's occurredAt, the resource's updatedAt). */
  at: Date;
}

/**
 * What applying an outcome did: `applied` changed stored state; `unchanged` found the record but
 * nothing to change (already decided, same URL, still pending); `unknown` found no record with
 * that key (an older attempt's key, or another system's).
 */
export type ApplyResult = 'applied' | 'unchanged' | 'unknown';

/** An end without issue as stored: the provider's code and message, or its status as both. */
export interface ProviderFailure {
  status: 'FAILURE' | 'CANCELLED';
  code: string;
  message: string;
}

export function failureOf(outcome: IssuanceOutcome, status: ProviderFailure['status']) {
  return {
    status,
    code: outcome.failureCode ?? status,
    message: outcome.failureMessage ?? `The provider reported ${status}.`,
  } satisfies ProviderFailure;
}

/**
 * A success's document as an invoice stores it: number, URL and time. Null without its number: a
 * success without one cannot be stored (spec 2.5); the webhook always carries it.
 */
export function issuedDocumentOf(outcome: IssuanceOutcome) {
  if (!outcome.taxInvoiceNumber) return null;
  return {
    taxInvoiceNumber: outcome.taxInvoiceNumber,
    documentUrl: outcome.documentUrl,
    issuedAt: outcome.at,
  };
}

export function outcomeOfIssuance(issuance: Issuance): IssuanceOutcome {
  return {
    issuanceKey: issuance.issuanceKey,
    kind: issuance.kind,
    status: issuance.status,
    taxInvoiceNumber: issuance.taxInvoiceNumber,
    documentUrl: issuance.documentUrl,
    failureCode: issuance.failureCode,
    failureMessage: issuance.failureMessage,
    approvalUrl: issuance.approvalUrl,
    approvalUrlExpiresAt: issuance.approvalUrlExpiresAt,
    at: issuance.updatedAt,
  };
}

export function outcomeOfWebhook(event: TaxInvoiceWebhookEvent): IssuanceOutcome {
  return {
    issuanceKey: event.issuanceKey,
    kind: event.kind,
    status: event.status,
    taxInvoiceNumber: event.taxInvoiceNumber ?? null,
    documentUrl: event.documentUrl ?? null,
    failureCode: event.failureCode ?? null,
    failureMessage: event.failureMessage ?? null,
    approvalUrl: null,
    approvalUrlExpiresAt: null,
    at: new Date(event.occurredAt),
  };
}

/** A failure we decide ourselves (the provider refused the request, a detail is missing). */
export function localFailure(
  kind: IssuanceKind,
  issuanceKey: string,
  code: string,
  message: string,
): IssuanceOutcome {
  return {
    issuanceKey,
    kind,
    status: 'FAILURE',
    taxInvoiceNumber: null,
    documentUrl: null,
    failureCode: code,
    failureMessage: message,
    approvalUrl: null,
    approvalUrlExpiresAt: null,
    at: new Date(),
  };
}
