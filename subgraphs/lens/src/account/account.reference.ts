import type { LensContext } from '../context.js';
import { Account } from './account.type.js';

/** Federation entry point: other subgraphs' `Account` references, batched by dataloader. */
export const accountReference = {
  __resolveReference: async (reference: { accountId: string }, context: LensContext) =>
    Account.fromObservation(
      reference.accountId,
      await context.accountLoader.load(reference.accountId),
    ),
};
