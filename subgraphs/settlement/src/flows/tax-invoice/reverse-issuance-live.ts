import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import type { Principal } from '../../kernel/principal.js';
import {
  TaxInvoiceProviderError,
  type Issuance,
  type TaxInvoiceProvider,
} from '../../outside/tax-invoice/tax-invoice.port.js';
import type { ReverseIssuance } from '../../domain/reverse-issuance/reverse-issuance.entity.js';
import type {
  ReverseIssuanceGrant,
  ReverseIssuanceService,
} from '../../domain/reverse-issuance/reverse-issuance.service.js';
import { outcomeOfIssuance } from './issuance-outcome.js';
import { reversePayload, type ProviderRequests } from './provider-requests.js';
import { reverseRequestPayload } from './tax-invoice-webhook.repository.js';
import type { TaxInvoiceResults } from './tax-invoice-results.js';

/** The provider as the reverse-issuance paths need it; null when none is connected. */
export interface ConnectedProvider {
  provider: TaxInvoiceProvider;
  requests: ProviderRequests;
}

/**
 * The reverse-issuance paths that talk to the provider while a person waits: the inline request
 * after the partner's `request`, the partner's approval URL, and the admin's live status. Each
 * applies what it learns through the one results path, so a later webhook or outbox answer of
 * the same facts changes nothing.
 */
export class LiveReverseIssuance {
  constructor(
    private readonly reverseIssuances: ReverseIssuanceService,
    private readonly results: TaxInvoiceResults,
    private readonly connected: ConnectedProvider | null,
    private readonly options: { inlineWaitMs: number; logger?: Logger },
  ) {}

  /**
   * After the partner's request committed: asks the provider for the approval URL for at most
   * `inlineWaitMs`. Whatever happens (no answer in time, an outage, a refusal), the request has
   * already succeeded; the outbox row keeps trying, and an answer arriving after the wait is still
   * applied in the background.
   */
  async requestInline(em: EntityManager, settlementId: string): Promise<void> {
    if (!this.connected) return;
    const work = this.sendStoredRequest(em.fork(), settlementId).then(
      () => undefined,
      (error: unknown) => {
        this.options.logger?.warn({ err: error, settlementId }, 'inline reverse issuance failed');
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.inlineWaitMs);
    });
    await Promise.race([work, waited]);
    clearTimeout(timer);
  }

  /**
   * The partner's approval URL: the stored one while it is valid, else a fresh one from the
   * provider (re-issued when expired; the request sent when the provider never got it). A
   * decision the provider made meanwhile is applied and answered as the record's 409.
   */
  async grantUrl(
    em: EntityManager,
    settlementId: string,
    actor: Principal,
    now = new Date(),
  ): Promise<ReverseIssuanceGrant> {
    const record = await this.reverseIssuances.stored(em, settlementId);
    requirePending(record);
    const stored = this.reverseIssuances.validGrant(record, now);
    if (stored) return stored;
    const { provider } = this.requireConnected();
    const issuance = await asUnavailable(() => this.freshIssuance(em, record, provider, now));
    if (issuance) await this.results.apply(em, outcomeOfIssuance(issuance), actor);
    const after = await this.reverseIssuances.stored(em.fork({ clear: true }), settlementId);
    requirePending(after);
    const fresh = this.reverseIssuances.validGrant(after, now);
    if (fresh) return fresh;
    throw unavailable('The tax-invoice provider issued no approval URL yet; retry shortly.');
  }

  /** The admin's live status: asks the provider and stores what it learns. */
  async liveStatus(
    em: EntityManager,
    settlementId: string,
    actor: Principal,
  ): Promise<ReverseIssuance> {
    const record = await this.reverseIssuances.stored(em, settlementId);
    const { provider } = this.requireConnected();
    const live = await asUnavailable(() => provider.status(record.issuanceKey));
    // null: the provider never got the request (it was down); the outbox is still sending it.
    if (live) await this.results.apply(em, outcomeOfIssuance(live), actor);
    return this.reverseIssuances.stored(em.fork({ clear: true }), settlementId);
  }

  /** What the provider has for `record`, with a valid URL when it is still PENDING. */
  private async freshIssuance(
    em: EntityManager,
    record: ReverseIssuance,
    provider: TaxInvoiceProvider,
    now: Date,
  ): Promise<Issuance | null> {
    const live = await provider.status(record.issuanceKey);
    if (!live) return this.sendStoredRequest(em, record.settlementId);
    if (live.status !== 'PENDING') return live;
    const expiresAt = live.approvalUrlExpiresAt;
    if (live.approvalUrl && live.approvalUrl !== record.grantUrl && expiresAt && expiresAt > now) {
      return live;
    }
    try {
      return await provider.reissueApprovalUrl(record.issuanceKey);
    } catch (error) {
      // NOT_PENDING: decided between the two calls; the decision is what to apply.
      if (error instanceof TaxInvoiceProviderError && error.failure === 'CONFLICT') {
        return provider.status(record.issuanceKey);
      }
      throw error;
    }
  }

  /** Sends the record's own outbox request (the same body the worker sends) and applies it. */
  private async sendStoredRequest(em: EntityManager, settlementId: string) {
    const { requests } = this.requireConnected();
    const record = await this.reverseIssuances.find(em, settlementId);
    if (!record || record.status !== 'PENDING') return null;
    const payload = reversePayload.safeParse(
      await reverseRequestPayload(em, settlementId, record.issuanceKey),
    );
    return payload.success ? requests.reverse(em, payload.data) : null;
  }

  private requireConnected(): ConnectedProvider {
    if (!this.connected) throw unavailable('No tax-invoice provider is connected.');
    return this.connected;
  }
}

/** Only a PENDING reverse issuance has an approval URL. */
function requirePending(record: ReverseIssuance): void {
  if (record.status === 'PENDING') return;
  throw new PlatformError(
    'CONFLICT',
    `The reverse issuance of settlement ${record.settlementId} is ${record.status}; only a ` +
      'PENDING one has an approval URL.',
    { reverseIssuanceStatus: record.status },
  );
}

function unavailable(message: string, retryAfterSeconds?: number | null): PlatformError {
  return new PlatformError(
    'PROVIDER_UNAVAILABLE',
    message,
    retryAfterSeconds ? { retryAfterSeconds } : {},
  );
}

/** Any provider error while a person waits is a 503 naming the provider (retry shortly). */
async function asUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TaxInvoiceProviderError)) throw error;
    throw unavailable(
      `The tax-invoice provider could not answer (${error.message}); retry shortly.`,
      error.retryAfterSeconds,
    );
  }
}
