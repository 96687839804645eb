import { randomBytes, randomUUID } from 'node:crypto';
import {
  scenarioOf,
  type CancellationRequest,
  type ForwardRequest,
  type IssuanceKind,
  type IssuanceResource,
  type ReverseRequest,
  type Scenario,
  type WebhookEvent,
} from './protocol.js';
import type {
  CancellationOutcome,
  CreateOutcome,
  IssuanceRecord,
  IssuanceStoreOptions,
} from './store-types.js';

export type { CancellationOutcome, CreateOutcome, IssuanceRecord, IssuanceStoreOptions };

const negate = (amount: string) => (amount === '0.00' ? amount : `-${amount}`);

/**
 * The simulated provider's issuances, in memory, with their life: PENDING until decided (at once
 * for `instant_`, after the delay otherwise), then SUCCESS or FAILURE; CANCELLED by the cancel
 * call. Deciding late tells the platform through `onDecided` (the webhook).
 */
export class IssuanceStore {
  private readonly records = new Map<string, IssuanceRecord>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private sequence = 0;

  constructor(private readonly options: IssuanceStoreOptions) {}

  get(issuanceKey: string): IssuanceRecord | undefined {
    return this.records.get(issuanceKey);
  }

  byApprovalToken(token: string): IssuanceRecord | undefined {
    for (const record of this.records.values()) if (record.approvalToken === token) return record;
    return undefined;
  }

  byInvoiceNumber(number: string): IssuanceRecord | undefined {
    for (const record of this.records.values())
      if (record.taxInvoiceNumber === number) return record;
    return undefined;
  }

  create(kind: 'FORWARD' | 'REVERSE', request: ForwardRequest | ReverseRequest): CreateOutcome {
    const fingerprint = `${kind}:${JSON.stringify(request)}`;
    const existing = this.existing(request.issuanceKey, fingerprint);
    if (existing) return existing;
    // The counterparty: whoever receives (forward) or approves (reverse) the tax invoice.
    const counterparty = kind === 'FORWARD' ? request.buyer.name : request.supplier.name;
    return this.start(kind, request, fingerprint, scenarioOf(counterparty), null);
  }

  /**
   * The cancellation tax invoice of an issued one (negative amounts, the same parties), decided
   * as the original's scenario decides (`instant_` in the answer, `manual_` never by itself,
   * otherwise after the delay). Asking again with the same key is a replay.
   */
  createCancellation(original: IssuanceRecord, body: CancellationRequest): CancellationOutcome {
    const fingerprint = `CANCELLATION:${original.issuanceKey}:${JSON.stringify(body)}`;
    const existing = this.existing(body.issuanceKey, fingerprint);
    if (existing) return existing;
    if (original.kind === 'CANCELLATION' || original.status !== 'SUCCESS') {
      return { outcome: 'not-issued', record: original };
    }
    if (original.cancelledBy) return { outcome: 'already-cancelled', record: original };
    const o = original.request;
    const request = {
      ...o,
      issuanceKey: body.issuanceKey,
      supplyAmount: negate(o.supplyAmount),
      vat: negate(o.vat),
      total: negate(o.total),
      description: `수정세금계산서 (cancellation) of ${original.taxInvoiceNumber}`,
    } as ForwardRequest | ReverseRequest;
    original.cancelledBy = body.issuanceKey;
    original.updatedAt = this.options.now();
    return this.start(
      'CANCELLATION',
      request,
      fingerprint,
      original.scenario,
      original.issuanceKey,
    );
  }

  private existing(issuanceKey: string, fingerprint: string): CreateOutcome | null {
    const record = this.records.get(issuanceKey);
    if (!record) return null;
    return { outcome: record.fingerprint === fingerprint ? 'replayed' : 'conflict', record };
  }

  private start(
    kind: IssuanceKind,
    request: ForwardRequest | ReverseRequest,
    fingerprint: string,
    scenario: Scenario,
    originalIssuanceKey: string | null,
  ): CreateOutcome {
    const now = this.options.now();
    const record: IssuanceRecord = {
      issuanceKey: request.issuanceKey,
      kind,
      status: 'PENDING',
      scenario,
      fingerprint,
      request,
      originalIssuanceKey,
      cancelledBy: null,
      taxInvoiceNumber: null,
      failureCode: null,
      failureMessage: null,
      approvalToken: null,
      approvalUrlExpiresAt: null,
      createdAt: now,
      updatedAt: now,
    };
    this.records.set(record.issuanceKey, record);
    if (record.scenario === 'instant') {
      this.succeed(record);
    } else {
      if (kind === 'REVERSE') this.newApprovalUrl(record);
      // `manual_`: only the approval page (or a cancel) decides.
      if (record.scenario !== 'manual') this.schedule(record);
    }
    return { outcome: 'created', record };
  }

  /** A new approval URL for a PENDING reverse issuance; the previous one stops working. */
  newApprovalUrl(record: IssuanceRecord): void {
    const now = this.options.now();
    record.approvalToken = randomBytes(18).toString('base64url');
    record.approvalUrlExpiresAt = new Date(now.getTime() + this.options.approvalTtlMs);
    record.updatedAt = now;
  }

  /**
   * PENDING → CANCELLED (a request withdrawn before it was decided). An issued tax invoice is
   * never deleted, as with a real provider (it is annulled by a cancellation), and a failed one
   * has nothing to withdraw: both refused.
   */
  cancel(record: IssuanceRecord): boolean {
    if (record.status === 'CANCELLED') return true;
    if (record.status !== 'PENDING') return false;
    this.clearTimer(record.issuanceKey);
    record.status = 'CANCELLED';
    record.approvalToken = null;
    record.approvalUrlExpiresAt = null;
    record.updatedAt = this.options.now();
    return true;
  }

  /** The partner's answer on the approval page (or the simulated one after the delay). */
  decide(record: IssuanceRecord, approve: boolean): void {
    if (record.status !== 'PENDING') return;
    this.clearTimer(record.issuanceKey);
    if (approve) this.succeed(record);
    else this.fail(record, 'REJECTED_BY_PARTNER', 'The partner rejected the reverse issuance');
    this.announce(record);
  }

  approvalUrlOf(record: IssuanceRecord): string | null {
    return record.approvalToken
      ? `${this.options.publicUrl()}/approve/${record.approvalToken}`
      : null;
  }

  toResource(record: IssuanceRecord): IssuanceResource {
    return {
      issuanceKey: record.issuanceKey,
      kind: record.kind,
      status: record.status,
      taxInvoiceNumber: record.taxInvoiceNumber,
      documentUrl: this.documentUrlOf(record),
      failureCode: record.failureCode,
      failureMessage: record.failureMessage,
      approvalUrl: record.status === 'PENDING' ? this.approvalUrlOf(record) : null,
      approvalUrlExpiresAt:
        record.status === 'PENDING' ? (record.approvalUrlExpiresAt?.toISOString() ?? null) : null,
      originalIssuanceKey: record.originalIssuanceKey,
      cancelledBy: record.cancelledBy,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
    };
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private documentUrlOf(record: IssuanceRecord): string | null {
    return record.taxInvoiceNumber
      ? `${this.options.publicUrl()}/documents/${record.taxInvoiceNumber}`
      : null;
  }

  private schedule(record: IssuanceRecord): void {
    const timer = setTimeout(() => this.decideAsScheduled(record), this.options.delayMs);
    timer.unref();
    this.timers.set(record.issuanceKey, timer);
  }

  /** Decisions still waiting for their delay. */
  pendingDecisions(): number {
    return this.timers.size;
  }

  /**
   * Takes every waiting decision now (or the one of `issuanceKey`) instead of after the delay:
   * what tests ask for rather than waiting the delay out. Returns how many were taken.
   */
  decideNow(issuanceKey?: string): number {
    const due = [...this.timers.keys()].filter((key) => !issuanceKey || key === issuanceKey);
    for (const key of due) {
      const record = this.records.get(key);
      this.clearTimer(key);
      if (record) this.decideAsScheduled(record);
    }
    return due.length;
  }

  /** What the delay would decide: failure for `fail_`, success otherwise. */
  private decideAsScheduled(record: IssuanceRecord): void {
    this.timers.delete(record.issuanceKey);
    if (record.status !== 'PENDING') return;
    if (record.scenario === 'fail') {
      this.fail(
        record,
        'NTS_REJECTED',
        'The national tax service refused the tax invoice (simulated: the name starts with fail_)',
      );
    } else {
      this.succeed(record);
    }
    this.announce(record);
  }

  private succeed(record: IssuanceRecord): void {
    const now = this.options.now();
    this.sequence += 1;
    // Shaped like a national e-tax invoice approval number: issue date, office part, serial.
    const day = now.toISOString().slice(0, 10).replaceAll('-', '');
    record.taxInvoiceNumber = `${day}-41000000-${String(this.sequence).padStart(8, '0')}`;
    record.status = 'SUCCESS';
    record.approvalToken = null;
    record.approvalUrlExpiresAt = null;
    record.updatedAt = now;
  }

  private fail(record: IssuanceRecord, code: string, message: string): void {
    record.status = 'FAILURE';
    record.failureCode = code;
    record.failureMessage = message;
    record.approvalToken = null;
    record.approvalUrlExpiresAt = null;
    record.updatedAt = this.options.now();
  }

  private announce(record: IssuanceRecord): void {
    if (record.status === 'PENDING') return;
    const event: WebhookEvent = {
      eventId: randomUUID(),
      issuanceKey: record.issuanceKey,
      kind: record.kind,
      status: record.status,
      ...(record.taxInvoiceNumber
        ? { taxInvoiceNumber: record.taxInvoiceNumber, documentUrl: this.documentUrlOf(record)! }
        : {}),
      ...(record.failureCode
        ? { failureCode: record.failureCode, failureMessage: record.failureMessage ?? '' }
        : {}),
      occurredAt: record.updatedAt.toISOString(),
    };
    this.options.onDecided(event, record.scenario === 'twice' ? 2 : 1);
  }

  private clearTimer(issuanceKey: string): void {
    const timer = this.timers.get(issuanceKey);
    if (timer) clearTimeout(timer);
    this.timers.delete(issuanceKey);
  }
}
