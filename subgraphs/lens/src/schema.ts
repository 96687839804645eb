import 'reflect-metadata';
import { platformAuthChecker } from '@campaign/platform';
import { buildFederatedSchema, type FederatedSchema } from '@campaign/platform/subgraph';
import { AccountConsoleResolver } from './account-console/account-console.resolver.js';
import { AdminResolver } from './admin/admin.resolver.js';
import { accountReference } from './account/account.reference.js';
import { Account } from './account/account.type.js';
import { AccountResolver, operationResolvers } from './account/accounts.resolver.js';
import { OperationAccountsResolver } from './account/operation-accounts.resolver.js';
import type { LensContext } from './context.js';
import { CreditsResolver } from './credits/credits.resolver.js';
import { OperationResolver } from './operation/operation.resolver.js';
import { AvailableOperationsResolver } from './operation/available-operations.resolver.js';

// The order of the imports above is the order of the fields in the SDL (type-graphql keeps its
// metadata in registration order), which is committed as schema/lens.graphql.
export function buildLensSchema(): Promise<FederatedSchema> {
  return buildFederatedSchema(
    {
      resolvers: [
        AccountResolver,
        ...operationResolvers,
        OperationAccountsResolver,
        OperationResolver,
        CreditsResolver,
        AvailableOperationsResolver,
        AccountConsoleResolver,
        AdminResolver,
      ],
      orphanedTypes: [Account],
      // `@Authorized(...roles)` on admin fields: 401 without a platform token, 403 for a role
      // not listed (catalogue errors, not type-graphql's "Access denied").
      authChecker: platformAuthChecker<LensContext>(),
    },
    { Account: accountReference },
  );
}
