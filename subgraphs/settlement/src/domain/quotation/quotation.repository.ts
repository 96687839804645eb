import { EntityRepository, type ObjectQuery } from '@mikro-orm/postgresql';
import { keysetPage } from '../../kernel/paging.js';
import type { Quotation } from './quotation.entity.js';

/** A quotation's own fields: what a change edits and the audit snapshots (without the lines). */
export type QuotationFields = Pick<
  Quotation,
  | 'status'
  | 'advertiserId'
  | 'agencyId'
  | 'title'
  | 'validUntil'
  | 'supplyAmount'
  | 'vatAmount'
  | 'totalAmount'
>;

/** The fields a claimed change may write. */
export type QuotationChanges = Partial<QuotationFields & Pick<Quotation, 'executedAt'>>;

/** Every query of the `quotation` table that is more than a find by id (DESIGN.md 14). */
export class QuotationRepository extends EntityRepository<Quotation> {
  /**
   * Optimistic lock: writes `changes` only if the quotation still has the version it was read
   * with (and so the status it was checked in). Of concurrent changes, the first takes the row;
   * the others wait for its commit, match no row and get false, having written nothing.
   */
  async claim(id: string, version: number, changes: QuotationChanges): Promise<boolean> {
    const written = await this.nativeUpdate(
      { id, version },
      { ...changes, version: version + 1, updatedAt: new Date() },
    );
    return written === 1;
  }

  /** One page of the quotations matching `where`, newest first, after id number `after`. */
  newestFirst(
    where: ObjectQuery<Quotation>,
    after: string | null,
    pageSize: number,
  ): Promise<{ rows: Quotation[]; total: number }> {
    return keysetPage<Quotation>(this, where, 'idNumber', 'desc', after, pageSize);
  }
}
