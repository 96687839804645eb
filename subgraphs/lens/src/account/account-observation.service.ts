import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountSummary } from '../upstream/upstream.port.js';
import { AccountObservation } from './account-observation.entity.js';

export class AccountObservationService {
  /** Keeps the newest observation of each account seen in a result. */
  async record(em: EntityManager, accounts: AccountSummary[], observedAt: Date): Promise<void> {
    const byId = new Map<string, AccountSummary>();
    for (const account of accounts) if (account.accountId) byId.set(account.accountId, account);
    if (byId.size === 0) return;
    const values = [...byId.values()];
    await em.execute(
      `insert into account_observation (account_id, handle, summary, observed_at)
       select * from unnest(?::text[], ?::text[], ?::jsonb[], ?::timestamptz[])
       on conflict (account_id) do update set handle = excluded.handle, summary = excluded.summary,
         observed_at = excluded.observed_at where account_observation.observed_at <= excluded.observed_at`,
      [
        values.map((a) => a.accountId),
        values.map((a) => a.handle),
        values.map((a) => JSON.stringify(a)),
        values.map(() => observedAt.toISOString()),
      ],
    );
  }

  async findMany(em: EntityManager, accountIds: readonly string[]): Promise<(AccountObservation | null)[]> {
    const found = await em.find(AccountObservation, { accountId: { $in: [...accountIds] } });
    const byId = new Map(found.map((o) => [o.accountId, o]));
    return accountIds.map((id) => byId.get(id) ?? null);
  }
}
