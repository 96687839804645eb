import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedSqlStore, type PreparedStatement } from '@campaign/platform';
import type { AccountSummary } from '../upstream/upstream.port.js';
import { AccountObservation } from './account-observation.entity.js';
import { summaryOf } from './observed.js';

/** `next` over `known`, field by field, where `next` has a value. */
function mergeKnown(known: AccountSummary | undefined, next: AccountSummary): AccountSummary {
  if (!known) return next;
  const merged = { ...known };
  for (const [key, value] of Object.entries(next) as [keyof AccountSummary, never][]) {
    if (value !== null) merged[key] = value;
  }
  return merged;
}

/** The upsert (migration billed_path): asynchronous commit, rows with a newer observation skipped. */
const RECORD: PreparedStatement = {
  name: 'lens_record_observations',
  text: 'select lens_record_observations($1::timestamptz, $2::jsonb)',
};

export class AccountObservationService {
  /**
   * Keeps the newest observation of each account seen in a result. Lists show partial accounts
   * (a follower has no counts): a value the newer observation lacks (null) keeps the last one
   * known, so a follower list never erases the follower count a profile look-up stored.
   * Runs after the settlement, in its own transaction: the hot row of a much-read account is
   * locked for this one statement, not across the money transaction, and an account already
   * observed later by another operation is skipped without a lock.
   */
  async record(db: PreparedSqlStore, accounts: AccountSummary[], observedAt: Date): Promise<void> {
    const byId = new Map<string, AccountSummary>();
    for (const account of accounts) {
      if (!account.accountId) continue;
      byId.set(account.accountId, mergeKnown(byId.get(account.accountId), summaryOf(account)));
    }
    if (byId.size === 0) return;
    // One lock order for every writer: concurrent results that share accounts (followers of
    // followers) would otherwise deadlock on each other's rows.
    const rows = [...byId.values()]
      .sort((a, b) => (a.accountId! < b.accountId! ? -1 : 1))
      .map((a) => ({
        account_id: a.accountId,
        handle: a.handle,
        summary: a,
      }));
    await runPrepared(db, RECORD, [observedAt.toISOString(), JSON.stringify(rows)]);
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
