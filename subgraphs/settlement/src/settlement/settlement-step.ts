import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { Agency } from '../agency/agency.entity.js';
import { appendAudit, type AuditRecord } from '../audit/audit.js';
import type { Principal } from '../auth/principal.js';
import { Campaign } from '../campaign/campaign.entity.js';
import { enqueue, type OutboxMessage } from '../journal/outbox/outbox.js';
import { Partner } from '../partner/partner.entity.js';
import { assertMoveAllowed, isTerminal, type MoveTrigger } from './settlement-moves.js';
import type { SettlementChanges } from './settlement.repository.js';
import { Settlement } from './settlement.entity.js';
import type { SettlementStatus, SettlementType } from './settlement-types.js';
import type { SettlementService } from './settlement.service.js';

/** A notification before it gets its dedupe key. */
export type Notice = Omit<OutboxMessage, 'dedupeKey' | 'settlementId'>;

/**
 * One change of one settlement, inside one transaction: the settlement as read, what it relates
 * to, and what every change does to the settlement itself: the checks, claiming the row
 * (optimistic lock), writing fields, the audit entry and the outbox rows. Other tables are
 * written by their own services; nothing is visible to others until the transaction commits.
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

  /** 409 CONFLICT when the settlement is completed or cancelled. */
  requireOpen(what: string): void {
    if (isTerminal(this.settlement.status)) {
      throw new PlatformError(
        'CONFLICT',
        `Settlement ${this.id} is ${this.settlement.status}; ${what} only for an open settlement.`,
        { currentStatus: this.settlement.status },
      );
    }
  }

  /** 409 INVALID_STATUS_TRANSITION unless the settlement may move to `to` by `via`. */
  assertMove(to: SettlementStatus, via: MoveTrigger): void {
    assertMoveAllowed(this.settlement.status, to, {
      settlementType: this.settlement.settlementType,
      via,
    });
  }

  /**
   * Optimistic lock (DESIGN S2): claims the version the settlement was read with. The first of
   * concurrent changes wins; the others wait for its commit, find the version moved and get a 409
   * CONCURRENT_MODIFICATION with nothing written.
   */
  async claim(): Promise<void> {
    const version = await this.tx.getRepository(Settlement).claim(this.id, this.settlement.version);
    if (version === null) {
      throw new PlatformError(
        'CONCURRENT_MODIFICATION',
        `Settlement ${this.id} was changed by another request at the same time; read it again ` +
          'and retry.',
      );
    }
    this.claimedVersion = version;
  }

  private claimed(): number {
    if (this.claimedVersion === null) throw new Error('claim() the settlement before changing it');
    return this.claimedVersion;
  }

  async update(changes: SettlementChanges): Promise<void> {
    this.claimed();
    await this.tx.getRepository(Settlement).write(this.id, changes);
  }

  /**
   * A status move: checks it, claims the row, writes the status with `fields` and the
   * STATUS_CHANGED audit entry. Returns the status moved from.
   */
  async move(
    to: SettlementStatus,
    via: MoveTrigger,
    reason: string | null,
    fields: SettlementChanges = {},
  ): Promise<SettlementStatus> {
    const from = this.settlement.status;
    this.assertMove(to, via);
    await this.claim();
    await this.update({ ...fields, status: to });
    await this.audit({
      action: 'STATUS_CHANGED',
      fromStatus: from,
      toStatus: to,
      reason,
      details: { trigger: via },
    });
    return from;
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
    const settlement = await settlements.get(tx, actor, id, { refresh: true });
    const campaign = await tx.findOneOrFail(Campaign, { id: settlement.campaignId });
    const partner = await tx.findOneOrFail(Partner, { id: settlement.partnerId });
    const advertiser = await tx.findOneOrFail(Advertiser, { id: campaign.advertiserId });
    await work(
      new SettlementStep(tx, actor, settlement, campaign, partner, advertiser, new Date()),
    );
  });
  return em.findOneOrFail(Settlement, { id }, { refresh: true });
}
