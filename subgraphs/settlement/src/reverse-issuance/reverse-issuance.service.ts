import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { SettlementStep } from '../settlement/settlement-step.js';
import { ReverseIssuance } from './reverse-issuance.entity.js';

/** The approval URL's lifetime at the provider (spec 8). */
export const GRANT_URL_VALIDITY_MINUTES = 10;

export interface ReverseIssuanceGrant {
  settlementId: string;
  grantUrl: string;
  expiresAt: Date;
}

/**
 * Reverse issuance of a business partner's tax invoice (spec 2.6). This issue stores the record
 * and writes the provider request to the outbox; the provider adapter (a later issue) sends it,
 * stores the issuance result and the approval URL, and syncs the live status.
 */
export class ReverseIssuanceService {
  find(em: EntityManager, settlementId: string): Promise<ReverseIssuance | null> {
    return em.findOne(ReverseIssuance, { settlementId });
  }

  /**
   * Opens (or re-opens, with a new issuance key) the settlement's record in PENDING. Returns the
   * record when a provider request must be sent, or null when one is already open or succeeded.
   */
  async open(step: SettlementStep): Promise<ReverseIssuance | null> {
    const existing = await this.find(step.tx, step.id);
    if (existing && (existing.status === 'PENDING' || existing.status === 'SUCCESS')) return null;
    const attempt = existing ? existing.attempt + 1 : 1;
    const fields = {
      issuanceKey: `${step.id}-R${attempt}`,
      status: 'PENDING' as const,
      grantUrl: null,
      grantUrlExpiresAt: null,
      failureCode: null,
      failureMessage: null,
      attempt,
    };
    if (existing) {
      await step.tx.nativeUpdate(
        ReverseIssuance,
        { id: existing.id },
        { ...fields, updatedAt: step.now },
      );
      return step.tx.findOneOrFail(ReverseIssuance, { id: existing.id }, { refresh: true });
    }
    const record = step.tx.create(ReverseIssuance, { settlementId: step.id, ...fields } as never);
    await step.tx.flush();
    return record;
  }

  /** Cancels an open record; returns it when the provider must be told. */
  async cancelOpen(step: SettlementStep): Promise<ReverseIssuance | null> {
    const existing = await this.find(step.tx, step.id);
    if (!existing || existing.status !== 'PENDING') return null;
    await step.tx.nativeUpdate(
      ReverseIssuance,
      { id: existing.id },
      { status: 'CANCELLED', updatedAt: step.now },
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
