import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { Agency } from '../agency/agency.entity.js';
import { appendAudit, type AuditRecord } from '../audit/audit.js';
import type { Principal } from '../auth/principal.js';
import { Campaign } from '../campaign/campaign.entity.js';
import { enqueue, type OutboxMessage } from '../outbox/outbox.js';
import { Partner } from '../partner/partner.entity.js';
import { Settlement } from './settlement.entity.js';
import type { SettlementType } from './settlement-types.js';
import type { SettlementService } from './settlement.service.js';

export type SettlementChanges = Partial<
  Pick<
    Settlement,
    | 'status'
    | 'settlementType'
    | 'advertiserInvoiceId'
    | 'partnerPayoutId'
    | 'invoiceIssuedAt'
    | 'invoicePaidAt'
    | 'partnerInvoiceReceivedAt'
    | 'requestedAt'
    | 'processedAt'
    | 'completedAt'
  >
> &
  Partial<
    Record<
      | 'campaignPrice'
      | 'commissionRate'
      | 'commissionAmount'
      | 'settlementAmount'
      | 'withholdingTaxRate'
      | 'withholdingTaxAmount'
      | 'payoutAmount',
      string
    >
  >;

/** A notification before it gets its dedupe key. */
export type Notice = Omit<OutboxMessage, 'dedupeKey' | 'settlementId'>;

/**
 * One change of one settlement, inside one transaction: the settlement as read, what it relates
 * to, and the steps every change shares: claiming the row (optimistic lock), writing fields, the
 * audit entry and the outbox rows. Nothing is visible to others until the transaction commits.
 */
export class SettlementStep {
  /** The settlement's version after {@link claim}; part of every dedupe key. */
  private claimedVersion: number | null = null;
  private agencyRow: Agency | null = null;

  constructor(
    readonly tx: EntityManager,
    readonly actor: Principal,
    readonly settlement: Settlement,
    readonly campaign: Campaign,
    readonly partner: Partner,
    readonly advertiser: Advertiser,
    readonly now: Date,
  ) {}

  get id(): string {
    return this.settlement.id;
  }

  get isBusinessPartner(): boolean {
    return this.partner.entityType !== 'INDIVIDUAL';
  }

  /** The settlement's agency, the default agency when agencyId is null. */
  async agency(): Promise<Agency> {
    this.agencyRow ??= await this.tx.findOneOrFail(
      Agency,
      this.settlement.agencyId === null ? { isDefault: true } : { id: this.settlement.agencyId },
    );
    return this.agencyRow;
  }

  /** 409 SETTLEMENT_TYPE_MISMATCH unless the settlement is of `type`. */
  requireType(type: SettlementType, action: string): void {
    if (this.settlement.settlementType !== type) {
      throw new PlatformError(
        'SETTLEMENT_TYPE_MISMATCH',
        `${action} is for ${type} settlements; settlement ${this.id} is ` +
          `${this.settlement.settlementType}.`,
        { settlementType: this.settlement.settlementType, requiredSettlementType: type },
      );
    }
  }

  /**
   * Optimistic lock (DESIGN S2): bumps the version the settlement was read with. The first of
   * concurrent changes wins; the others wait for its commit, find the version moved and get a 409
   * CONCURRENT_MODIFICATION with nothing written.
   */
  async claim(): Promise<void> {
    const rows = await this.tx.execute<{ version: number }[]>(
      `update settlement set version = version + 1, updated_at = now()
       where id = ? and version = ? returning version`,
      [this.id, this.settlement.version],
    );
    if (rows.length !== 1) {
      throw new PlatformError(
        'CONCURRENT_MODIFICATION',
        `Settlement ${this.id} was changed by another request at the same time; read it again ` +
          'and retry.',
      );
    }
    this.claimedVersion = Number(rows[0]!.version);
  }

  private claimed(): number {
    if (this.claimedVersion === null) throw new Error('claim() the settlement before changing it');
    return this.claimedVersion;
  }

  async update(changes: SettlementChanges): Promise<void> {
    this.claimed();
    await this.tx.nativeUpdate(Settlement, { id: this.id }, changes as never);
  }

  async audit(record: Omit<AuditRecord, 'settlementId' | 'actor'>): Promise<void> {
    this.claimed();
    await appendAudit(this.tx, { ...record, settlementId: this.id, actor: this.actor });
  }

  async notify(notices: readonly Notice[]): Promise<void> {
    const version = this.claimed();
    await enqueue(
      this.tx,
      notices.map((notice) => ({
        ...notice,
        settlementId: this.id,
        dedupeKey: `${this.id}:v${version}:${notice.event}`,
      })),
    );
  }
}

/**
 * Runs `work` on a settlement the actor may see, in one transaction, and returns the settlement
 * as committed. Out of scope or unknown: 404.
 */
export async function withSettlement(
  em: EntityManager,
  settlements: SettlementService,
  actor: Principal,
  id: string,
  work: (step: SettlementStep) => Promise<void>,
): Promise<Settlement> {
  // A fork of its own: the request's identity map never holds the transaction's entities.
  await em.fork({ clear: true }).transactional(async (tx) => {
    const settlement = await settlements.getVisible(tx, actor, id, { refresh: true });
    const campaign = await tx.findOneOrFail(Campaign, { id: settlement.campaignId });
    const partner = await tx.findOneOrFail(Partner, { id: settlement.partnerId });
    const advertiser = await tx.findOneOrFail(Advertiser, { id: campaign.advertiserId });
    await work(
      new SettlementStep(tx, actor, settlement, campaign, partner, advertiser, new Date()),
    );
  });
  return em.findOneOrFail(Settlement, { id }, { refresh: true });
}
