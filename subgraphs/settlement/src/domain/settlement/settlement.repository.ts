import { EntityRepository, raw, type ObjectQuery } from '@mikro-orm/postgresql';
import type { Settlement } from './settlement.entity.js';
import type { SettlementStatus } from '../../kernel/settlement-types.js';

/** The fields a change may write; the status only through `writeStatus` (flows/settlement-step.ts). */
export type SettlementChanges = Partial<
  Pick<
    Settlement,
    | 'settlementType'
    | 'agencyId'
    | 'campaignPrice'
    | 'advertiserInvoiceId'
    | 'partnerPayoutId'
    | 'invoiceIssuedAt'
    | 'invoicePaidAt'
    | 'partnerInvoiceReceivedAt'
    | 'requestedAt'
    | 'processedAt'
    | 'completedAt'
    | 'commissionRate'
    | 'commissionAmount'
    | 'settlementAmount'
    | 'withholdingTaxRate'
    | 'withholdingTaxAmount'
    | 'payoutAmount'
    | 'adminNotes'
  >
>;

/** The amounts the partner summary adds up per status. */
export const SUMMED_AMOUNTS = [
  'campaignPrice',
  'settlementAmount',
  'withholdingTaxAmount',
  'payoutAmount',
] as const;
export type SummedAmount = (typeof SUMMED_AMOUNTS)[number];

/** Count and sums of one status, as PostgreSQL adds them up (decimal text), by property. */
export type StatusSums = { status: SettlementStatus; count: number } & Record<SummedAmount, string>;

/** Every query of the `settlement` table that is more than a find by id (DESIGN.md 14). */
export class SettlementRepository extends EntityRepository<Settlement> {
  /**
   * Optimistic lock (DESIGN S2): bumps the version the settlement was read with and returns the
   * new one, or null when another change moved it first. The first of concurrent claims takes
   * the row; the others wait for its commit and then match no row.
   */
  async claim(id: string, version: number): Promise<number | null> {
    const rows = await this.em.execute<{ version: number }[]>(
      `update settlement set version = version + 1, updated_at = now()
       where id = ? and version = ? returning version`,
      [id, version],
    );
    return rows.length === 1 ? Number(rows[0]!.version) : null;
  }

  /** Writes fields of a settlement its caller has claimed. */
  async write(id: string, changes: SettlementChanges): Promise<void> {
    await this.nativeUpdate({ id }, changes);
  }

  /** Writes the status of a claimed settlement: the state machine's (settlement-step.ts) alone. */
  async writeStatus(
    id: string,
    status: SettlementStatus,
    changes: SettlementChanges,
  ): Promise<void> {
    await this.nativeUpdate({ id }, { ...changes, status });
  }

  /** Whether a settlement other than `id` holds the advertiser invoice or payout `document` names. */
  async othersHold(
    id: string,
    document: { advertiserInvoiceId: string } | { partnerPayoutId: string },
  ): Promise<boolean> {
    return (await this.count({ ...document, id: { $ne: id } })) > 0;
  }

  /** Count and amount sums per status of the settlements matching `where` (statuses found). */
  sumsByStatus(where: ObjectQuery<Settlement>): Promise<StatusSums[]> {
    return this.createQueryBuilder()
      .select([
        'status',
        raw('count(*)::int as count'),
        // The columns as the entity maps them: no column name is written here again.
        ...SUMMED_AMOUNTS.map((property) => {
          const [column] = this.em.getMetadata(this.entityName).properties[property].fieldNames;
          return raw(`sum(${column})::text as "${property}"`);
        }),
      ])
      .where(where)
      .groupBy('status')
      .execute<StatusSums[]>('all', false);
  }
}
