import 'reflect-metadata';
import { buildFederatedSchema, type FederatedSchema } from '@campaign/platform/federation';
import { AdminResolver } from './admin/admin.resolver.js';
import { accountReference } from './account/account.reference.js';
import { Account } from './account/account.type.js';
import { AccountsResolver } from './account/accounts.resolver.js';
import { OperationAccountsResolver } from './account/operation-accounts.resolver.js';
import { CreditsResolver } from './credits/credits.resolver.js';
import { OperationResolver } from './operation/operation.resolver.js';

export function buildLensSchema(): Promise<FederatedSchema> {
  return buildFederatedSchema(
    {
      resolvers: [
        AccountsResolver,
        OperationAccountsResolver,
        OperationResolver,
        CreditsResolver,
        AdminResolver,
      ],
      orphanedTypes: [Account],
    },
    { Account: accountReference },
  );
}
