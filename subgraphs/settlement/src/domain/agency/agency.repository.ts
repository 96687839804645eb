import { EntityRepository, LockMode, raw, type ObjectQuery } from '@mikro-orm/postgresql';
import { runPrepared } from '@campaign/platform';
import { keysetPage } from '../../kernel/paging.js';
import type { Agency } from './agency.entity.js';

const DEFAULT_AGENCY_ID = {
  name: 'settlement_default_agency_id',
  text: 'select id from agency where is_default limit 1',
};

/** Every query of the `agency` table that is more than a find by id (DESIGN.md 14). */
export class AgencyRepository extends EntityRepository<Agency> {
  /**
   * The default agency's id as one named statement (issue 14: every scoped read asks for it).
   * Autocommit on the ORM's pool: outside transactions only.
   */
  async defaultId(): Promise<string | null> {
    const [row] = await runPrepared<{ id: string }>(this.em, DEFAULT_AGENCY_ID, []);
    return row?.id ?? null;
  }

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
  byId(
    where: ObjectQuery<Agency>,
    after: string | null,
    pageSize: number,
  ): Promise<{ rows: Agency[]; total: number }> {
    return keysetPage<Agency>(this, where, 'id', 'asc', after, pageSize);
  }
}
