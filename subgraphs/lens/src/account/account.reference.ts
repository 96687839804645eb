import type { LensContext } from '../context.js';
import { Account } from './account.type.js';

/**
 * Federation entry point: other subgraphs' `Account` references, batched by dataloader. Only the
 * gateway reaches it (subgraph secret), for a platform token of any role (SUPER_ADMIN, ADMIN,
 * PARTNER): the settlement subgraph has already scoped which partners (and so which accounts)
 * that token may see (DESIGN.md L13). The token is verified once per request, not per entity.
 * Not `@Authorized`: type-graphql's middlewares do not run for reference resolvers.
 */
export const accountReference = {
  __resolveReference: async (reference: { accountId: string }, context: LensContext) => {
    await context.principal();
    return Account.fromObservation(
      reference.accountId,
      await context.accountLoader.load(reference.accountId),
    );
  },
};
