import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { ReverseIssuance } from './reverse-issuance.entity.js';

export interface ReverseIssuanceGrant {
  settlementId: string;
  grantUrl: string;
  expiresAt: Date;
}

/**
 * Reverse issuance of a business partner's tax invoice (spec 2.6); the only writer of
 * `reverse_issuance`. This issue stores the record and the workflow writes the provider request
 * to the outbox; the provider adapter (a later issue) sends it, stores the issuance result and
 * the approval URL (valid 10 minutes, spec 8), and syncs the live status.
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
      attempt,
    };
    if (existing) {
      await tx.nativeUpdate(ReverseIssuance, { id: existing.id }, { ...fields, updatedAt: at });
      return tx.findOneOrFail(ReverseIssuance, { id: existing.id }, { refresh: true });
    }
    const record = tx.create(ReverseIssuance, { settlementId, ...fields } as never);
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
      { status: 'CANCELLED', updatedAt: at },
    );
    return existing;
  }

  /** The stored status (admin); the live provider look-up is the provider issue's. */
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

  /**
   * The approval URL while it is valid. Re-issuing an expired or missing URL needs the
   * tax-invoice provider, which is not connected yet: 503 PROVIDER_UNAVAILABLE (retryable).
   */
  async grantUrl(
    em: EntityManager,
    settlementId: string,
    now = new Date(),
  ): Promise<ReverseIssuanceGrant> {
    const record = await this.stored(em, settlementId);
    if (record.status !== 'PENDING') {
      throw new PlatformError(
        'CONFLICT',
        `The reverse issuance of settlement ${settlementId} is ${record.status}; only a PENDING ` +
          'one has an approval URL.',
        { reverseIssuanceStatus: record.status },
      );
    }
    if (record.grantUrl && record.grantUrlExpiresAt && record.grantUrlExpiresAt > now) {
      return { settlementId, grantUrl: record.grantUrl, expiresAt: record.grantUrlExpiresAt };
    }
    throw new PlatformError(
      'PROVIDER_UNAVAILABLE',
      'The tax-invoice provider has not issued an approval URL for this settlement yet; retry ' +
        'shortly.',
    );
  }
}
