import type { EntityManager } from '@mikro-orm/postgresql';
import { DEVELOPMENT_SECRETS, type Logger } from '@campaign/platform';
import type { Principal } from '../../kernel/principal.js';
import type { TaxInvoiceProvider } from '../../outside/tax-invoice/tax-invoice.port.js';
import type { ReverseIssuance } from '../../domain/reverse-issuance/reverse-issuance.entity.js';
import type { ReverseIssuanceGrant } from '../../domain/reverse-issuance/reverse-issuance.service.js';
import type { WorkflowServices } from '../workflow-services.js';
import { ProviderRequests } from './provider-requests.js';
import { LiveReverseIssuance } from './reverse-issuance-live.js';
import { TaxInvoiceResults } from './tax-invoice-results.js';
import { applyTaxInvoiceWebhook, type WebhookAnswer } from './tax-invoice-webhook.js';

/** What the integration reaches outside the database; without a provider it is "not connected". */
export interface TaxInvoiceParts {
  provider?: TaxInvoiceProvider;
  /** Verifies the webhook (TAX_INVOICE_WEBHOOK_SECRET); the development value by default. */
  webhookSecret?: string;
  /** How long the partner's `request` waits for the approval URL (TAX_INVOICE_INLINE_WAIT_MS). */
  inlineWaitMs?: number;
  logger?: Logger;
}

export const DEFAULT_INLINE_WAIT_MS = 2000;

/**
 * The tax-invoice provider integration (DESIGN.md S11): what resolvers and the outbox worker call.
 * Requests go out through the outbox (ProviderRequests, the TAX_INVOICE_PROVIDER channel);
 * answers, webhook deliveries and live look-ups all come back through TaxInvoiceResults.
 */
export class TaxInvoiceService {
  readonly results: TaxInvoiceResults;
  /** The outbox channel's sender; null when no provider is connected (seed, service tests). */
  readonly requests: ProviderRequests | null;
  private readonly live: LiveReverseIssuance;
  private readonly secrets: readonly string[];

  constructor(
    owners: WorkflowServices,
    private readonly parts: TaxInvoiceParts = {},
  ) {
    this.results = new TaxInvoiceResults(owners);
    const { provider, logger } = parts;
    this.requests = provider ? new ProviderRequests(provider, this.results, logger) : null;
    this.live = new LiveReverseIssuance(
      owners.reverseIssuances,
      this.results,
      provider && this.requests ? { provider, requests: this.requests } : null,
      {
        inlineWaitMs: parts.inlineWaitMs ?? DEFAULT_INLINE_WAIT_MS,
        ...(logger ? { logger } : {}),
      },
    );
    this.secrets = [parts.webhookSecret ?? DEVELOPMENT_SECRETS.webhook];
  }

  /** `POST /api/webhooks/tax-invoice`, as the REST adapter forwards it. */
  applyWebhook(
    em: EntityManager,
    rawBody: string,
    signature: string | null | undefined,
  ): Promise<WebhookAnswer> {
    return applyTaxInvoiceWebhook(
      em,
      this.results,
      this.secrets,
      { rawBody, signature },
      this.parts.logger,
    );
  }

  /** After a partner's request committed: the approval URL, if the provider answers in time. */
  requestReverseInline(em: EntityManager, settlementId: string): Promise<void> {
    return this.live.requestInline(em, settlementId);
  }

  /** `GET /api/partner/settlements/:id/reverse-issuance-grant-url`. */
  grantUrl(
    em: EntityManager,
    settlementId: string,
    actor: Principal,
  ): Promise<ReverseIssuanceGrant> {
    return this.live.grantUrl(em, settlementId, actor);
  }

  /** `GET /api/admin/settlements/:id/reverse-issuance-status`: live, written back. */
  liveReverseStatus(
    em: EntityManager,
    settlementId: string,
    actor: Principal,
  ): Promise<ReverseIssuance> {
    return this.live.liveStatus(em, settlementId, actor);
  }
}
