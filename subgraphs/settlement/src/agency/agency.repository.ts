import { EntityRepository, LockMode, raw, type ObjectQuery } from '@mikro-orm/postgresql';
import type { Agency } from './agency.entity.js';

/** Every query of the `agency` table that is more than a find by id (DESIGN.md 14). */
export class AgencyRepository extends EntityRepository<Agency> {
  /** The agency whose code equals `code` ignoring case (the unique index is on lower(code)). */
  findByCode(code: string): Promise<Agency | null> {
    return this.findOne({ [raw('lower(code)')]: code.toLowerCase() } as ObjectQuery<Agency>);
  }

  /** The row, locked for the rest of the transaction: `update` waits, `share` lets readers in. */
  lock(id: string, mode: 'update' | 'share'): Promise<Agency | null> {
    return this.findOne(
      { id },
      {
        lockMode: mode === 'update' ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_READ,
        refresh: true,
      },
    );
  }

  /** One page of the agencies matching `where` by id (the default agency first), after `after`. */
  async byId(
    where: ObjectQuery<Agency>,
    after: string | null,
    pageSize: number,
  ): Promise<{ rows: Agency[]; total: number }> {
    const total = await this.count(where);
    const rows = await this.find(
      after === null ? where : { $and: [where, { id: { $gt: after } }] },
      {
        orderBy: { id: 'asc' },
        limit: pageSize + 1,
      },
    );
    return { rows, total };
  }
}
