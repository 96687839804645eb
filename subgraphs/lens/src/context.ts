import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Admin, StaffRole } from './admin/admin-auth.js';
import type { AccountObservation } from './account/account-observation.entity.js';
import type { LensOperations } from './account/lens-operations.js';
import type { CreditsService } from './credits/credits.service.js';
import type { LedgerQueryService } from './credits/ledger-query.service.js';
import type { OperationQueryService } from './operation/operation-query.service.js';
import type { OperationService } from './operation/operation.service.js';
import type { ReconciliationService } from './operation/reconciliation.service.js';
import type { Tenant } from './tenant/tenant.entity.js';
import type { Caller, TenantService } from './tenant/tenant.service.js';

/** The long-lived services, made once at start and shared by every request. */
export interface LensServices {
  operations: OperationService;
  /** The lens data operations of spec section 4 (account/lens-operations.ts). */
  definitions: LensOperations;
  queries: OperationQueryService;
  credits: CreditsService;
  ledger: LedgerQueryService;
  reconciliation: ReconciliationService;
  tenants: TenantService;
}

export interface LensContext {
  /** One EntityManager fork per request. */
  em: EntityManager;
  requestId: string;
  services: LensServices;
  /** The API key's tenant and key; authenticates on first use (401 without a valid key). */
  caller: () => Promise<Caller>;
  /** The tenant of the request's API key; authenticates on first use. */
  tenant: () => Promise<Tenant>;
  /** A SUPER_ADMIN token's holder; verifies on first use (401, or 403 for other roles). */
  admin: () => Promise<Admin>;
  /** A platform token (admin console, partner console) of one of these roles; 401/403 else. */
  staff: (roles: readonly StaffRole[]) => Promise<Admin>;
  accountLoader: DataLoader<string, AccountObservation | null>;
}
