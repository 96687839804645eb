import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Logger } from '@campaign/platform';
import type { ChannelHandler, OutboxRow } from '../../journal/outbox/channel-handler.js';
import { OutboxEvent } from '../../journal/outbox/outbox.js';
import {
  TaxInvoiceProviderError,
  type Issuance,
  type IssuanceKind,
  type TaxInvoiceProvider,
} from '../../outside/tax-invoice/tax-invoice.port.js';
import { localFailure, outcomeOfIssuance } from './issuance-outcome.js';
import type { TaxInvoiceResults } from './tax-invoice-results.js';

/**
 * The TAX_INVOICE_PROVIDER channel: each TAX_INVOICE_* outbox row becomes one provider call,
 * and the answer is applied like any other provider result (tax-invoice-results.ts).
 *
 * The issuance key travels in the row's payload, fixed when the row was written, so every retry
 * of a row (and the inline path, which sends the same row) asks with the same key and the
 * provider answers with the same issuance: a retried row never issues twice.
 */

const amount = z.string().regex(/^\d{1,13}\.\d{2}$/);
const key = z.string().min(1).max(100);
const text = z.string().min(1);

/** settlement-notices.ts `taxInvoiceIssueRequest`. */
const forwardPayload = z.object({
  issuanceKey: key,
  invoiceNumber: text,
  campaignTitle: text,
  supplier: z.object({ businessName: text, businessNumber: text }),
  buyer: z.object({ name: text, email: text }),
  supplyAmount: amount,
  taxAmount: amount,
  totalAmount: amount,
});

/** settlement-notices.ts `reverseIssueRequest`. */
export const reversePayload = z.object({
  issuanceKey: key,
  campaignTitle: text,
  supplier: z.object({ name: text, email: text, businessNumber: text.nullish() }),
  buyer: z.object({ businessName: text, businessNumber: text }),
  supplyAmount: amount,
  taxAmount: amount,
  totalAmount: amount,
});
export type ReversePayload = z.infer<typeof reversePayload>;

const cancelPayload = z.object({ issuanceKey: key });

/** tax-invoice-notices.ts `taxInvoiceCancellationRequest`. */
const cancellationPayload = z.object({
  issuanceKey: key,
  originalIssuanceKey: key,
  reason: z.string().optional(),
});

/** A row this channel cannot read: retrying cannot help, so it ends (DEAD) with the reason. */
function readPayload<S extends z.ZodType>(schema: S, row: Pick<OutboxRow, 'event' | 'payload'>) {
  const parsed = schema.safeParse(row.payload);
  if (parsed.success) return parsed.data as z.output<S>;
  const issue = parsed.error.issues[0];
  throw new TaxInvoiceProviderError(
    'REJECTED',
    'INVALID_PAYLOAD',
    `${row.event} row without a usable ${issue?.path.join('.') || 'payload'} (written before ` +
      'the provider integration?); retry-issuance or a new request writes a new one',
  );
}

export class ProviderRequests {
  constructor(
    private readonly provider: TaxInvoiceProvider,
    private readonly results: TaxInvoiceResults,
    private readonly logger?: Logger,
  ) {}

  /** Sends one row; throws what the worker should retry (an outage), never a refusal. */
  async deliver(em: EntityManager, row: Pick<OutboxRow, 'event' | 'payload'>): Promise<void> {
    switch (row.event) {
      case OutboxEvent.TAX_INVOICE_ISSUE_REQUEST:
        await this.forward(em, readPayload(forwardPayload, row));
        return;
      case OutboxEvent.TAX_INVOICE_REVERSE_ISSUE_REQUEST:
        await this.reverse(em, readPayload(reversePayload, row));
        return;
      case OutboxEvent.TAX_INVOICE_REVERSE_CANCEL_REQUEST:
        await this.cancel(readPayload(cancelPayload, row).issuanceKey);
        return;
      case OutboxEvent.TAX_INVOICE_FORWARD_WITHDRAW_REQUEST:
        await this.withdrawForward(em, readPayload(cancelPayload, row).issuanceKey);
        return;
      case OutboxEvent.TAX_INVOICE_CANCELLATION_REQUEST: {
        const p = readPayload(cancellationPayload, row);
        if (!(await this.results.stillWanted(em, 'CANCELLATION', p.issuanceKey))) return;
        await this.ask(em, 'CANCELLATION', p.issuanceKey, () =>
          this.provider.issueCancellation({
            issuanceKey: p.issuanceKey,
            originalIssuanceKey: p.originalIssuanceKey,
            ...(p.reason === undefined ? {} : { reason: p.reason }),
          }),
        );
        return;
      }
      default:
        throw new TaxInvoiceProviderError(
          'REJECTED',
          'NOT_A_PROVIDER_REQUEST',
          `${row.event} is not a tax-invoice provider request`,
        );
    }
  }

  /** The agency's tax invoice to the advertiser (supplier = agency, buyer = advertiser). */
  private async forward(em: EntityManager, p: z.output<typeof forwardPayload>): Promise<void> {
    if (!(await this.results.stillWanted(em, 'FORWARD', p.issuanceKey))) return;
    await this.ask(em, 'FORWARD', p.issuanceKey, () =>
      this.provider.issueForward({
        issuanceKey: p.issuanceKey,
        supplier: { name: p.supplier.businessName, businessNumber: p.supplier.businessNumber },
        // Advertisers carry no business number: the provider invoices them by name and e-mail.
        buyer: { name: p.buyer.name, businessNumber: null, email: p.buyer.email },
        supplyAmount: p.supplyAmount,
        vat: p.taxAmount,
        total: p.totalAmount,
        description: `${p.invoiceNumber} ${p.campaignTitle}`.slice(0, 500),
      }),
    );
  }

  /**
   * The business partner's tax invoice to the agency, drafted for the partner's approval. The
   * provider's answer (null when nothing was asked: the record no longer waits, or it failed).
   */
  async reverse(em: EntityManager, p: ReversePayload): Promise<Issuance | null> {
    if (!(await this.results.stillWanted(em, 'REVERSE', p.issuanceKey))) return null;
    const businessNumber = p.supplier.businessNumber;
    if (!businessNumber) {
      // The provider drafts the invoice in the partner's name and needs its number: asking
      // again cannot help until an admin records it, so this attempt fails and the team is told.
      await this.results.apply(
        em,
        localFailure(
          'REVERSE',
          p.issuanceKey,
          'PARTNER_BUSINESS_NUMBER_MISSING',
          `Partner ${p.supplier.name} has no business registration number; the tax invoice ` +
            'cannot be drafted in its name.',
        ),
      );
      return null;
    }
    return this.ask(em, 'REVERSE', p.issuanceKey, () =>
      this.provider.requestReverse({
        issuanceKey: p.issuanceKey,
        supplier: { name: p.supplier.name, businessNumber, email: p.supplier.email },
        buyer: { name: p.buyer.businessName, businessNumber: p.buyer.businessNumber },
        supplyAmount: p.supplyAmount,
        vat: p.taxAmount,
        total: p.totalAmount,
        description: p.campaignTitle.slice(0, 500),
      }),
    );
  }

  /**
   * One provider call and its answer applied. A refusal (400, 409: the same request would be
   * refused again) is this attempt's failure, stored and alerted, not a reason to retry; an
   * outage or a refused API key is thrown for the worker to retry later.
   */
  private async ask(
    em: EntityManager,
    kind: IssuanceKind,
    issuanceKey: string,
    call: () => Promise<Issuance>,
  ): Promise<Issuance | null> {
    let issuance: Issuance;
    try {
      issuance = await call();
    } catch (error) {
      if (!(error instanceof TaxInvoiceProviderError) || error.retryable) throw error;
      this.logger?.warn({ err: error, issuanceKey }, 'tax-invoice provider refused a request');
      const code = error.providerCode ?? `PROVIDER_${error.failure}`;
      await this.results.apply(em, localFailure(kind, issuanceKey, code, error.message));
      return null;
    }
    await this.results.apply(em, outcomeOfIssuance(issuance));
    return issuance;
  }

  /**
   * Withdraws the forward request of a cancelled invoice. Whatever the provider then says is
   * applied as a result: CANCELLED (withdrawn), or, when it had already decided, its live state:
   * a SUCCESS is annulled (forward-results.ts), never left live. A key it never received is
   * withdrawn here; should the request still reach it later, its result is annulled the same way.
   */
  private async withdrawForward(em: EntityManager, issuanceKey: string): Promise<void> {
    let issuance: Issuance | null;
    try {
      issuance = await this.provider.cancel(issuanceKey, 'Withdrawn: the invoice was cancelled');
    } catch (error) {
      if (!(error instanceof TaxInvoiceProviderError)) throw error;
      if (error.failure === 'CONFLICT') issuance = await this.provider.status(issuanceKey);
      else if (error.failure === 'NOT_FOUND') issuance = null;
      else throw error;
    }
    await this.results.apply(
      em,
      issuance
        ? outcomeOfIssuance(issuance)
        : {
            ...localFailure(
              'FORWARD',
              issuanceKey,
              'WITHDRAWN',
              'Withdrawn before the provider received it',
            ),
            status: 'CANCELLED',
          },
    );
  }

  /** Withdraws a reverse issuance the settlement no longer wants (cancel, type change). */
  private async cancel(issuanceKey: string): Promise<void> {
    try {
      await this.provider.cancel(issuanceKey, 'Withdrawn: the settlement was cancelled or changed');
    } catch (error) {
      // Nothing left to withdraw: the provider never kept it (NOT_FOUND, e.g. it was down when
      // asked) or it already failed (409 NOT_CANCELLABLE).
      if (
        error instanceof TaxInvoiceProviderError &&
        (error.failure === 'NOT_FOUND' || error.failure === 'CONFLICT')
      ) {
        return;
      }
      throw error;
    }
  }
}

export interface ProviderRequestDeps {
  provider: TaxInvoiceProvider;
  /** A fresh EntityManager fork: every row is handled in one of its own. */
  em: () => EntityManager;
  /** TaxInvoiceService's sender and results (tax-invoice.service.ts). */
  services: { taxInvoices: { requests: ProviderRequests | null; results: TaxInvoiceResults } };
  logger?: Logger;
}

/** The delivery worker's handler of channel TAX_INVOICE_PROVIDER (outbox/channel-handler.ts). */
export function createProviderRequestHandler(deps: ProviderRequestDeps): ChannelHandler {
  const { taxInvoices } = deps.services;
  // The services' own sender when they were given this provider; otherwise one for it.
  const requests =
    taxInvoices.requests ?? new ProviderRequests(deps.provider, taxInvoices.results, deps.logger);
  return (row) => requests.deliver(deps.em(), row);
}
