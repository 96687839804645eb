import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { readTaxInvoiceWebhook } from '../../outside/tax-invoice/webhook-event.js';
import { outcomeOfWebhook, type ApplyResult } from './issuance-outcome.js';
import { PROVIDER_ACTOR } from './locked-settlement.js';
import { claimWebhookEvent, markWebhookEventApplied } from './tax-invoice-webhook.repository.js';
import type { TaxInvoiceResults } from './tax-invoice-results.js';

/** What the webhook answers: whether this delivery changed anything. */
export interface WebhookAnswer {
  applied: boolean;
}

/**
 * Receives one delivery of the provider's webhook (DESIGN.md section 5), as the REST adapter
 * forwards it: the raw body and the X-Signature header.
 *
 * - The signature is checked over the raw body before anything is parsed: missing, wrong, or
 *   more than 300 s old or ahead is 401 WEBHOOK_SIGNATURE_INVALID, nothing read or written.
 * - Signed but not the documented body: 400 INVALID_REQUEST, nothing written.
 * - Otherwise the event id is claimed and the result applied in one transaction, so a delivery
 *   repeated any number of times, or concurrently, is applied once; the others answer
 *   `applied: false`, as does an event that changed nothing (already decided, a key we do not
 *   know: logged, acknowledged, never a 5xx, so the provider stops retrying it).
 */
export async function applyTaxInvoiceWebhook(
  em: EntityManager,
  results: TaxInvoiceResults,
  secrets: readonly string[],
  delivery: { rawBody: string; signature: string | null | undefined },
  logger?: Logger,
): Promise<WebhookAnswer> {
  const reading = readTaxInvoiceWebhook(delivery.rawBody, delivery.signature ?? undefined, secrets);
  if (!reading.ok && reading.httpStatus === 401) {
    throw new PlatformError(
      'WEBHOOK_SIGNATURE_INVALID',
      `The X-Signature of this delivery is ${SIGNATURE_WORDS[reading.reason]}; nothing was applied.`,
      { reason: reading.reason },
    );
  }
  if (!reading.ok) {
    throw new PlatformError(
      'INVALID_REQUEST',
      `The webhook body is not a tax-invoice event: ${reading.reason}`,
    );
  }
  const { event } = reading;
  const result = await em.fork({ clear: true }).transactional(async (tx) => {
    if (!(await claimWebhookEvent(tx, event))) return 'duplicate' as const;
    const applied: ApplyResult = await results.applyIn(tx, outcomeOfWebhook(event), PROVIDER_ACTOR);
    await markWebhookEventApplied(tx, event.eventId, applied === 'applied');
    return applied;
  });
  const fields = { eventId: event.eventId, issuanceKey: event.issuanceKey, status: event.status };
  if (result === 'unknown') logger?.warn(fields, 'tax-invoice webhook for an unknown issuance key');
  else logger?.info({ ...fields, result }, 'tax-invoice webhook received');
  return { applied: result === 'applied' };
}

const SIGNATURE_WORDS = {
  MISSING: 'missing',
  MALFORMED: 'not t=<unix seconds>,v1=<hex HMAC-SHA256>',
  MISMATCH: 'wrong',
  TOO_OLD: 'more than 300 s old',
  TOO_NEW: 'more than 300 s ahead of our clock',
} as const;
