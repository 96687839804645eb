import type { EntityManager } from '@mikro-orm/postgresql';
import { annotateSpan } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { Advertiser } from '../domain/advertiser/advertiser.entity.js';
import { Agency } from '../domain/agency/agency.entity.js';
import { appendAudit, type AuditRecord } from '../journal/audit/audit.js';
import type { Principal } from '../kernel/principal.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import { enqueue } from '../journal/outbox/outbox.js';
import { statusChanged, type Notice } from './notice.js';
import { Partner } from '../domain/partner/partner.entity.js';
import {
  assertMoveAllowed,
  isTerminal,
  type MoveTrigger,
} from '../domain/settlement/settlement-moves.js';
import type { SettlementChanges } from '../domain/settlement/settlement.repository.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import type { SettlementStatus, SettlementType } from '../kernel/settlement-types.js';
import type { SettlementService } from '../domain/settlement/settlement.service.js';

/** A status move as made: the status it left and its SETTLEMENT_STATUS_CHANGED notice. */
export interface Moved {
  from: SettlementStatus;
  to: SettlementStatus;
  notice: Notice;
}

/** What a move writes besides the status: more fields, more facts in its audit entry. */
export interface MoveWrites {
  fields?: SettlementChanges;
  details?: Record<string, unknown>;
}

/**
 * The settlement's state machine (DESIGN S2): one change of one settlement, inside one
 * transaction: the settlement as read, what it relates to, and what every change does to the
 * settlement itself: the checks, claiming the row (optimistic lock), writing fields, the audit
 * entry and the outbox rows. Its status changes here only, by {@link move} (a move of the
 * allowed-moves table) or {@link resetToPending}; a settlement is created SETTLEMENT_PENDING by
 * SettlementService.createForCampaign. Other tables are written by their own services; nothing
 * is visible to others until the transaction commits.
 */
export class SettlementStep {
  /** The settlement's version after {@link claim}; part of every dedupe key. */
  private claimedVersion: number | null = null;
  private agencyRow: Agency | null = null;
  /**
   * The admin's notes sent with this action (undefined: none sent): stored on the settlement once
   * it is claimed and named in the action's audit entries (issue 23 item 6).
   */
  private notes: string | null | undefined = undefined;

  constructor(
    readonly tx: EntityManager,
    readonly actor: Principal,
    readonly settlement: Settlement,
    readonly campaign: Campaign,
    readonly partner: Partner,
    readonly advertiser: Advertiser,
    readonly now: Date,
  ) {
    // The settlement a request changed, on its span (issue 26).
    annotateSpan({ 'settlement.id': settlement.id });
  }

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

  /** 409 CONFLICT when the partner is INDIVIDUAL: such a partner issues no tax invoice (S4). */
  requireBusinessPartner(): void {
    if (!this.isBusinessPartner) {
      throw new PlatformError(
        'CONFLICT',
        `The partner of settlement ${this.id} is INDIVIDUAL and issues no tax invoice.`,
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
    if (this.claimedVersion !== null) return;
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
   * A status move: checks it against the allowed moves, claims the row, writes the status with
   * `writes.fields` and the STATUS_CHANGED audit entry (trigger and `writes.details`). Returns
   * the status moved from and the move's notice, for the caller to queue with its own.
   */
  async move(
    to: SettlementStatus,
    via: MoveTrigger,
    reason: string | null,
    writes: MoveWrites = {},
  ): Promise<Moved> {
    const from = this.settlement.status;
    this.assertMove(to, via);
    await this.claim();
    await this.tx.getRepository(Settlement).writeStatus(this.id, to, writes.fields ?? {});
    await this.audit({
      action: 'STATUS_CHANGED',
      fromStatus: from,
      toStatus: to,
      reason,
      details: { trigger: via, ...writes.details },
    });
    return { from, to, notice: statusChanged(this, from, to, reason, via) };
  }

  /**
   * Back to SETTLEMENT_PENDING with new terms (S5, issue 12): not a move of the allowed-moves
   * table; the type change and the campaign change check their money window first. Writes the
   * status with `fields` (the request and the advertiser invoice unlinked) and the audit entry
   * `record`. Returns the status-changed notice, or null when it was PENDING and `announce` is
   * 'when-moved'.
   */
  async resetToPending(
    via: 'type' | 'campaign',
    announce: 'always' | 'when-moved',
    fields: SettlementChanges,
    record: Omit<AuditRecord, 'settlementId' | 'actor' | 'fromStatus' | 'toStatus'>,
  ): Promise<Notice | null> {
    const from = this.settlement.status;
    await this.claim();
    await this.tx.getRepository(Settlement).writeStatus(this.id, 'SETTLEMENT_PENDING', {
      ...fields,
      requestedAt: null,
      advertiserInvoiceId: null,
    });
    await this.audit({ ...record, fromStatus: from, toStatus: 'SETTLEMENT_PENDING' });
    if (announce === 'when-moved' && from === 'SETTLEMENT_PENDING') return null;
    return statusChanged(this, from, 'SETTLEMENT_PENDING', record.reason ?? null, via);
  }

  /** Whether another settlement holds this one's invoice or payout too (then it stays, S6). */
  sharesDocument(
    document: { advertiserInvoiceId: string } | { partnerPayoutId: string },
  ): Promise<boolean> {
    return this.tx.getRepository(Settlement).othersHold(this.id, document);
  }

  async audit(record: Omit<AuditRecord, 'settlementId' | 'actor'>): Promise<void> {
    this.claimed();
    const details =
      this.notes === undefined ? record.details : { ...record.details, adminNotes: this.notes };
    await appendAudit(this.tx, {
      ...record,
      ...(details ? { details } : {}),
      settlementId: this.id,
      actor: this.actor,
    });
  }

  /** Notes an admin sent with the action: admins only (a partner's are a 400). */
  withAdminNotes(notes: string | null | undefined): void {
    if (notes === undefined) return;
    if (this.actor.role === 'PARTNER') {
      throw new PlatformError('INVALID_REQUEST', 'adminNotes is written by admins only.', {
        field: 'adminNotes',
      });
    }
    this.notes = notes;
  }

  /** Stores the notes sent with the action on the settlement, once the action claimed it. */
  async storeAdminNotes(): Promise<void> {
    if (this.notes === undefined || this.claimedVersion === null) return;
    await this.update({ adminNotes: this.notes });
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

/** The step of `settlement`, read in `tx`, with what it relates to: the one place a step is made. */
export async function openStep(
  tx: EntityManager,
  actor: Principal,
  settlement: Settlement,
): Promise<SettlementStep> {
  const campaign = await tx.findOneOrFail(Campaign, { id: settlement.campaignId });
  const partner = await tx.findOneOrFail(Partner, { id: settlement.partnerId });
  const advertiser = await tx.findOneOrFail(Advertiser, { id: campaign.advertiserId });
  return new SettlementStep(tx, actor, settlement, campaign, partner, advertiser, new Date());
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
    await work(await openStep(tx, actor, settlement));
  });
  return em.findOneOrFail(Settlement, { id }, { refresh: true });
}
