import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PreparedSqlStore, Principal } from '@campaign/platform';
import type { AccountObservation } from './account/account-observation.entity.js';
import type { LensServices } from './services.js';
import type { Caller, TenantProfile } from './tenant/tenant.service.js';

/** What every resolver gets: the request's EntityManager, its callers and the lens services. */
export interface LensContext {
  /** One EntityManager fork per request, made on first use. */
  readonly em: EntityManager;
  /**
   * Prepared statements only (`runPrepared`): the ORM's pool without a fork, so a request that
   * needs no entity (a billed call, a replay, a status read) makes no EntityManager.
   */
  readonly db: PreparedSqlStore;
  requestId: string;
  /** The request's Authorization header: an API key, a tool token or a platform token. */
  authorization: string | undefined;
  /** The services, made once at start (services.ts); resolvers reach them only through here. */
  services: LensServices;
  /** The API key's tenant and key; authenticates on first use (401 without a valid key). */
  caller: () => Promise<Caller>;
  /** The tenant of the request's API key; authenticates on first use. */
  tenant: () => Promise<TenantProfile>;
  /**
   * The platform token's holder (admin and partner consoles), verified once per request: 401
   * without a valid token. `@Authorized(...roles)` checks its role (platformAuthChecker).
   */
  principal: () => Promise<Principal>;
  /** Made on first use, one per request. */
  readonly accountLoader: DataLoader<string, AccountObservation | null>;
}
