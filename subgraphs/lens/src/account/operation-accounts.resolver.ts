import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { LensContext } from '../context.js';
import { LensOperation } from '../operation/operation.type.js';
import { Account } from './account.type.js';

/** The account ids in a result, first appearance first: every object with an id and a handle. */
export function accountIdsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) accountIdsIn(item, into);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record['accountId'] === 'string' && 'handle' in record) {
      into.add(record['accountId']);
    }
    for (const child of Object.values(record)) accountIdsIn(child, into);
  }
  return into;
}

/**
 * `LensOperation.accounts`: the accounts of a result as federated `Account`s with their
 * observation time, read from stored observations through the request's dataloader (one query
 * for every operation and list in the request, no credits).
 */
@Resolver(() => LensOperation)
export class OperationAccountsResolver {
  @FieldResolver(() => [Account], {
    description:
      'Every account in `data` (owners, mentions, followers, ...), as last observed; no credits.',
  })
  async accounts(
    @Root() operation: LensOperation,
    @Ctx() context: LensContext,
  ): Promise<Account[]> {
    const ids = [...accountIdsIn(operation.data ?? null)];
    const observations = await context.accountLoader.loadMany(ids);
    return ids.map((id, i) => {
      const found = observations[i];
      return Account.fromObservation(id, found instanceof Error ? null : (found ?? null));
    });
  }
}
