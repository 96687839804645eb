import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountObservation } from './account/account-observation.entity.js';
import type { OperationService } from './operation/operation.service.js';
import type { Tenant } from './tenant/tenant.entity.js';

/** The long-lived services, made once at start and shared by every request. */
export interface LensServices {
  operations: OperationService;
}

export interface LensContext {
  /** One EntityManager fork per request. */
  em: EntityManager;
  requestId: string;
  services: LensServices;
  /** The tenant of the request's API key; authenticates on first use. */
  tenant: () => Promise<Tenant>;
  accountLoader: DataLoader<string, AccountObservation | null>;
}
