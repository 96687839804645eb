import { randomBytes, randomUUID } from 'node:crypto';
import {
  scenarioOf,
  type ForwardRequest,
  type IssuanceKind,
  type IssuanceResource,
  type IssuanceStatus,
  type ReverseRequest,
  type Scenario,
  type WebhookEvent,
} from './protocol.js';

export interface IssuanceRecord {
  issuanceKey: string;
  kind: IssuanceKind;
  status: IssuanceStatus;
  scenario: Scenario;
  /** The request as parsed, serialised: a replay must match it exactly. */
  fingerprint: string;
  request: ForwardRequest | ReverseRequest;
  taxInvoiceNumber: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  approvalToken: string | null;
  approvalUrlExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IssuanceStoreOptions {
  /** How long until a normal request is decided (and its webhook sent), in milliseconds. */
  delayMs: number;
  /** Approval URL validity; 10 minutes by the specification. */
  approvalTtlMs: number;
  now: () => Date;
  /** Where this provider is reached from outside (approval and document URLs start with it). */
  publicUrl: () => string;
  /** Called with each result decided after the answer (twice for `twice_`). */
  onDecided: (event: WebhookEvent, copies: number) => void;
}

export type CreateOutcome =
  | { outcome: 'created' | 'replayed'; record: IssuanceRecord }
  | { outcome: 'conflict'; record: IssuanceRecord };

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

  create(kind: IssuanceKind, request: ForwardRequest | ReverseRequest): CreateOutcome {
    const fingerprint = `${kind}:${JSON.stringify(request)}`;
    const existing = this.records.get(request.issuanceKey);
    if (existing) {
      return {
        outcome: existing.fingerprint === fingerprint ? 'replayed' : 'conflict',
        record: existing,
      };
    }
    // The counterparty: whoever receives (forward) or approves (reverse) the tax invoice.
    const counterparty = kind === 'FORWARD' ? request.buyer.name : request.supplier.name;
    const now = this.options.now();
    const record: IssuanceRecord = {
      issuanceKey: request.issuanceKey,
      kind,
      status: 'PENDING',
      scenario: scenarioOf(counterparty),
      fingerprint,
      request,
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

  /** PENDING or SUCCESS → CANCELLED (an issued invoice is withdrawn); never from FAILURE. */
  cancel(record: IssuanceRecord): boolean {
    if (record.status === 'CANCELLED') return true;
    if (record.status === 'FAILURE') return false;
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
