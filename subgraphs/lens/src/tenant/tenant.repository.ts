import type { EntityManager } from '@mikro-orm/postgresql';

export interface AccountRow {
  id: string;
  credit_balance: string;
  alert_email: string | null;
  alert_below: string | null;
  low_balance_armed: boolean;
}

const COLUMNS = 'id, credit_balance, alert_email, alert_below, low_balance_armed';

/** The `tenant` table's statements of the account console (balances move in CreditsService). */
export class TenantRepository {
  async find(em: EntityManager, tenantId: string): Promise<AccountRow | undefined> {
    const [row] = await em.execute<AccountRow[]>(`select ${COLUMNS} from tenant where id = ?`, [
      tenantId,
    ]);
    return row;
  }

  /**
   * Sets (or, with nulls, clears) the low-balance alert. It is armed when the balance is at or
   * above the threshold now; a balance already below waits for a top-up above it.
   */
  async setAlert(
    em: EntityManager,
    tenantId: string,
    email: string | null,
    below: number | null,
  ): Promise<AccountRow | undefined> {
    const [row] = await em.execute<AccountRow[]>(
      `update tenant set alert_email = ?, alert_below = ?::bigint,
         low_balance_armed = coalesce(credit_balance >= ?::bigint, false)
       where id = ? returning ${COLUMNS}`,
      [email, below, below, tenantId],
    );
    return row;
  }
}
