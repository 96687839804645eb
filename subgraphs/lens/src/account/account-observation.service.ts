import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountSummary } from '../upstream/upstream.port.js';
import { AccountObservation } from './account-observation.entity.js';

export class AccountObservationService {
  /** Keeps the newest observation of each account seen in a result. */
  async record(em: EntityManager, accounts: AccountSummary[], observedAt: Date): Promise<void> {
    const byId = new Map<string, AccountSummary>();
    for (const account of accounts) if (account.accountId) byId.set(account.accountId, account);
    if (byId.size === 0) return;
    const rows = [...byId.values()].map((a) => ({
      account_id: a.accountId,
      handle: a.handle,
      summary: a,
    }));
    await em.execute(
      `insert into account_observation (account_id, handle, summary, observed_at)
       select x.account_id, x.handle, x.summary, ?::timestamptz
       from jsonb_to_recordset(?::jsonb) as x(account_id text, handle text, summary jsonb)
       on conflict (account_id) do update set handle = excluded.handle, summary = excluded.summary,
         observed_at = excluded.observed_at where account_observation.observed_at <= excluded.observed_at`,
      [observedAt.toISOString(), JSON.stringify(rows)],
    );
  }

  async findMany(
    em: EntityManager,
    accountIds: readonly string[],
  ): Promise<(AccountObservation | null)[]> {
    const found = await em.find(AccountObservation, { accountId: { $in: [...accountIds] } });
    const byId = new Map(found.map((o) => [o.accountId, o]));
    return accountIds.map((id) => byId.get(id) ?? null);
  }
}
