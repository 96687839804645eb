import 'reflect-metadata';
import { buildFederatedSchema, type FederatedSchema } from '@campaign/platform/federation';
import { accountReference } from './account/account.reference.js';
import { Account } from './account/account.type.js';
import { AccountsResolver } from './account/accounts.resolver.js';
import { OperationResolver } from './operation/operation.resolver.js';

export function buildLensSchema(): Promise<FederatedSchema> {
  return buildFederatedSchema(
    { resolvers: [AccountsResolver, OperationResolver], orphanedTypes: [Account] },
    { Account: accountReference },
  );
}
