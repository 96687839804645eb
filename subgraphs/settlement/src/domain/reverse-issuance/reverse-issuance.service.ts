import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { ReverseIssuance } from './reverse-issuance.entity.js';

export interface ReverseIssuanceGrant {
  settlementId: string;
  grantUrl: string;
  expiresAt: Date;
}

/** What the provider decided about a reverse issuance. */
export interface ReverseIssuanceResult {
  status: 'SUCCESS' | 'FAILURE' | 'CANCELLED';
  taxInvoiceNumber: string | null;
  documentUrl: string | null;
  failureCode: string | null;
  failureMessage: string | null;
}

/**
 * Reverse issuance of a business partner's tax invoice (spec 2.6); the only writer of
 * `reverse_issuance`. The workflow opens and cancels records; the provider integration
 * (tax-invoice/) stores what the provider answers: the approval URL (valid 10 minutes, spec 8)
 * and the result.
 */
export class ReverseIssuanceService {
  find(em: EntityManager, settlementId: string): Promise<ReverseIssuance | null> {
    return em.findOne(ReverseIssuance, { settlementId });
  }

  /**
   * Opens (or re-opens, with a new issuance key) the settlement's record in PENDING. Returns the
   * record when a provider request must be sent, or null when one is already open or succeeded.
   */
  async open(tx: EntityManager, settlementId: string, at: Date): Promise<ReverseIssuance | null> {
    const existing = await this.find(tx, settlementId);
    if (existing && (existing.status === 'PENDING' || existing.status === 'SUCCESS')) return null;
    const attempt = existing ? existing.attempt + 1 : 1;
    const fields = {
      issuanceKey: `${settlementId}-R${attempt}`,
      status: 'PENDING' as const,
      grantUrl: null,
      grantUrlExpiresAt: null,
      failureCode: null,
      failureMessage: null,
      taxInvoiceNumber: null,
      documentUrl: null,
      attempt,
    };
    if (existing) {
      await tx.nativeUpdate(ReverseIssuance, { id: existing.id }, { ...fields, updatedAt: at });
      return tx.findOneOrFail(ReverseIssuance, { id: existing.id }, { refresh: true });
    }
    const record = tx.create(ReverseIssuance, { settlementId, ...fields });
    await tx.flush();
    return record;
  }

  /** Cancels an open record; returns it when the provider must be told. */
  async cancelOpen(
    tx: EntityManager,
    settlementId: string,
    at: Date,
  ): Promise<ReverseIssuance | null> {
    const existing = await this.find(tx, settlementId);
    if (!existing || existing.status !== 'PENDING') return null;
    await tx.nativeUpdate(
      ReverseIssuance,
      { id: existing.id },
      // The provider kills the approval URL on cancel; keeping it would show a dead link.
      { status: 'CANCELLED', grantUrl: null, grantUrlExpiresAt: null, updatedAt: at },
    );
    return existing;
  }

  /** The stored record; 404 REVERSE_ISSUANCE_NOT_FOUND when there is none. */
  async stored(em: EntityManager, settlementId: string): Promise<ReverseIssuance> {
    const record = await this.find(em, settlementId);
    if (!record) {
      throw new PlatformError(
        'REVERSE_ISSUANCE_NOT_FOUND',
        `Settlement ${settlementId} has no reverse issuance: its partner is INDIVIDUAL, it is ` +
          'DIRECT_INVOICE, or the partner has not requested settlement yet.',
      );
    }
    return record;
  }

  /** The stored approval URL while it is valid, else null (none yet, expired, not PENDING). */
  validGrant(record: ReverseIssuance, now: Date): ReverseIssuanceGrant | null {
    if (record.status !== 'PENDING' || !record.grantUrl || !record.grantUrlExpiresAt) return null;
    if (record.grantUrlExpiresAt <= now) return null;
    return {
      settlementId: record.settlementId,
      grantUrl: record.grantUrl,
      expiresAt: record.grantUrlExpiresAt,
    };
  }

  /** The record whose current issuance has this key (an older key of a re-opened one: null). */
  findByIssuanceKey(em: EntityManager, issuanceKey: string): Promise<ReverseIssuance | null> {
    return em.findOne(ReverseIssuance, { issuanceKey }, { refresh: true });
  }

  /** A (new) approval URL of a PENDING record. */
  async recordApprovalUrl(
    tx: EntityManager,
    record: ReverseIssuance,
    grant: { grantUrl: string; expiresAt: Date },
    at: Date,
  ): Promise<void> {
    await tx.nativeUpdate(
      ReverseIssuance,
      { id: record.id, status: 'PENDING' },
      { grantUrl: grant.grantUrl, grantUrlExpiresAt: grant.expiresAt, updatedAt: at },
    );
  }

  /** The provider's final word on a PENDING record; the approval URL is dead from then on. */
  async recordResult(
    tx: EntityManager,
    record: ReverseIssuance,
    result: ReverseIssuanceResult,
    at: Date,
  ): Promise<void> {
    await tx.nativeUpdate(
      ReverseIssuance,
      { id: record.id, status: 'PENDING' },
      { ...result, grantUrl: null, grantUrlExpiresAt: null, updatedAt: at },
    );
  }
}
