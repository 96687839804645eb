import type { LensContext } from '../context.js';
import { Account } from './account.type.js';

/**
 * Federation entry point: other subgraphs' `Account` references, batched by dataloader. Only the
 * gateway reaches it (subgraph secret), for a platform token: the settlement subgraph has already
 * scoped which partners (and so which accounts) that token may see (DESIGN.md L13).
 */
export const accountReference = {
  __resolveReference: async (reference: { accountId: string }, context: LensContext) => {
    await context.staff(['SUPER_ADMIN', 'ADMIN', 'PARTNER']);
    return Account.fromObservation(
      reference.accountId,
      await context.accountLoader.load(reference.accountId),
    );
  },
};
