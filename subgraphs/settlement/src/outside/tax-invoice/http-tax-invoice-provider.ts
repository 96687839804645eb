import { z } from 'zod';
import { callOutside, retryAfterSeconds, type HttpAnswer } from '../http-client.js';
import {
  TaxInvoiceProviderError,
  type CancellationIssuanceRequest,
  type ForwardIssuanceRequest,
  type Issuance,
  type ReverseIssuanceRequest,
  type TaxInvoiceProvider,
} from './tax-invoice.port.js';

export interface HttpTaxInvoiceProviderOptions {
  /** e.g. the simulator's `http://127.0.0.1:4103`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Whole exchange (default 10 s). */
  timeoutMs?: number;
}

const isoTime = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/** The issuance resource every endpoint answers; read strictly enough to trust, loosely enough to
 *  survive a provider that adds fields. */
const issuanceAnswer = z.object({
  issuanceKey: z.string().min(1),
  kind: z.enum(['FORWARD', 'REVERSE', 'CANCELLATION']),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED']),
  taxInvoiceNumber: z.string().nullable(),
  documentUrl: z.string().nullable(),
  failureCode: z.string().nullable(),
  failureMessage: z.string().nullable(),
  approvalUrl: z.string().nullable(),
  approvalUrlExpiresAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

const errorAnswer = z.object({
  error: z.object({ code: z.string(), message: z.string().optional() }),
});

/**
 * The tax-invoice provider over its HTTP protocol (docs/settlement.md, "Tax-invoice provider
 * protocol"). Answers are checked before they are believed: an answer that is not an issuance is
 * UNAVAILABLE (retryable), never a half-read result.
 */
export class HttpTaxInvoiceProvider implements TaxInvoiceProvider {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpTaxInvoiceProviderOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  issueForward(request: ForwardIssuanceRequest): Promise<Issuance> {
    return this.issuance('POST', '/v1/issuances/forward', {
      ...request,
      buyer: { ...request.buyer, businessNumber: request.buyer.businessNumber ?? null },
    });
  }

  requestReverse(request: ReverseIssuanceRequest): Promise<Issuance> {
    return this.issuance('POST', '/v1/issuances/reverse', request);
  }

  reissueApprovalUrl(issuanceKey: string): Promise<Issuance> {
    return this.issuance(
      'POST',
      `/v1/issuances/${encodeURIComponent(issuanceKey)}/approval-url`,
      {},
    );
  }

  async status(issuanceKey: string): Promise<Issuance | null> {
    try {
      return await this.issuance('GET', `/v1/issuances/${encodeURIComponent(issuanceKey)}`);
    } catch (error) {
      if (error instanceof TaxInvoiceProviderError && error.failure === 'NOT_FOUND') return null;
      throw error;
    }
  }

  cancel(issuanceKey: string, reason?: string): Promise<Issuance> {
    const path = `/v1/issuances/${encodeURIComponent(issuanceKey)}/cancel`;
    return this.issuance('POST', path, reason === undefined ? {} : { reason });
  }

  issueCancellation(request: CancellationIssuanceRequest): Promise<Issuance> {
    const path = `/v1/issuances/${encodeURIComponent(request.originalIssuanceKey)}/cancellation`;
    return this.issuance('POST', path, {
      issuanceKey: request.issuanceKey,
      ...(request.reason === undefined ? {} : { reason: request.reason.slice(0, 1000) }),
    });
  }

  private async issuance(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Issuance> {
    const answer = await this.call(method, path, body);
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = issuanceAnswer.safeParse(answer.json);
      if (parsed.success) return parsed.data;
      throw new TaxInvoiceProviderError(
        'UNAVAILABLE',
        null,
        `tax-invoice provider answered HTTP ${answer.status} without an issuance`,
      );
    }
    throw failureOf(answer);
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<HttpAnswer> {
    return callOutside(
      `${this.baseUrl}${path}`,
      {
        method,
        body,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        timeoutMs: this.timeoutMs,
      },
      (error) =>
        new TaxInvoiceProviderError('UNAVAILABLE', null, `tax-invoice provider ${error.message}`),
    );
  }
}

function failureOf(answer: HttpAnswer): TaxInvoiceProviderError {
  const parsed = errorAnswer.safeParse(answer.json);
  const code = parsed.success ? parsed.data.error.code : null;
  const said = parsed.success && parsed.data.error.message ? `: ${parsed.data.error.message}` : '';
  const named = code ? ` ${code}` : '';
  const message = `tax-invoice provider answered HTTP ${answer.status}${named}${said}`;
  const { status } = answer;
  if (status === 401 || status === 403)
    return new TaxInvoiceProviderError('UNAUTHORIZED', code, message);
  if (status === 404) return new TaxInvoiceProviderError('NOT_FOUND', code, message);
  if (status === 409) return new TaxInvoiceProviderError('CONFLICT', code, message);
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return new TaxInvoiceProviderError('REJECTED', code, message);
  }
  return new TaxInvoiceProviderError(
    'UNAVAILABLE',
    code,
    message,
    retryAfterSeconds(answer.headers),
  );
}
