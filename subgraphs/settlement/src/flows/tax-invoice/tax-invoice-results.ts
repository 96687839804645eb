import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import type { IssuanceKind } from '../../outside/tax-invoice/tax-invoice.port.js';
import type { WorkflowServices } from '../workflow-services.js';
import { applyCancellationOutcome } from './cancellation-results.js';
import { applyForwardOutcome } from './forward-results.js';
import type { ApplyResult, IssuanceOutcome } from './issuance-outcome.js';
import { PROVIDER_ACTOR } from './locked-settlement.js';
import { applyReverseOutcome } from './reverse-results.js';

/**
 * The one way a provider result reaches storage, whether it came in an answer (outbox worker,
 * inline request, grant-url refresh), a live look-up or the webhook.
 */
export class TaxInvoiceResults {
  constructor(private readonly services: WorkflowServices) {}

  /** Applies `outcome` in a transaction of its own. */
  apply(
    em: EntityManager,
    outcome: IssuanceOutcome,
    actor: Principal = PROVIDER_ACTOR,
  ): Promise<ApplyResult> {
    return em.fork({ clear: true }).transactional((tx) => this.applyIn(tx, outcome, actor));
  }

  /** Applies `outcome` inside the caller's transaction (the webhook records its event there). */
  applyIn(tx: EntityManager, outcome: IssuanceOutcome, actor: Principal): Promise<ApplyResult> {
    const apply = {
      FORWARD: applyForwardOutcome,
      REVERSE: applyReverseOutcome,
      CANCELLATION: applyCancellationOutcome,
    }[outcome.kind];
    return apply(tx, this.services, outcome, actor);
  }

  /**
   * Whether a request row is still wanted: its invoice or record still waits for that key. A row
   * of a cancelled settlement, a retried invoice or a withdrawn record is not sent, so the
   * provider never starts an issuance nobody is waiting for.
   */
  async stillWanted(em: EntityManager, kind: IssuanceKind, issuanceKey: string): Promise<boolean> {
    if (kind === 'FORWARD') {
      const invoice = await this.services.invoices.findByIssuanceKey(em, issuanceKey);
      return invoice?.taxInvoiceStatus === 'PENDING' && invoice.status !== 'CANCELLED';
    }
    if (kind === 'CANCELLATION') {
      const invoice = await this.services.invoices.findByCancellationKey(em, issuanceKey);
      return invoice?.cancellationTaxInvoiceStatus === 'PENDING';
    }
    const record = await this.services.reverseIssuances.findByIssuanceKey(em, issuanceKey);
    return record?.status === 'PENDING';
  }
}
