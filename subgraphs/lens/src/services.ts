import type { Logger } from '@campaign/platform';
import { AccountObservationService } from './account/account-observation.service.js';
import { createLensOperations } from './account/lens-operations.js';
import type { LensConfig } from './config.js';
import { CreditsService } from './credits/credits.service.js';
import { LedgerQueryService } from './credits/ledger-query.service.js';
import { AccessPolicy } from './operation/access-policy.js';
import { ExecutionService } from './operation/execution.service.js';
import { OperationCatalogue } from './operation/operation-catalogue.js';
import { OperationEvents } from './operation/operation-events.js';
import { OperationQueryService } from './operation/operation-query.service.js';
import { OperationService } from './operation/operation.service.js';
import { PriceBook } from './operation/prices.js';
import { ReconciliationService } from './operation/reconciliation.service.js';
import { UsageService } from './account-console/usage.service.js';
import { CredentialService } from './tenant/credential.service.js';
import { TenantRepository } from './tenant/tenant.repository.js';
import { TenantService } from './tenant/tenant.service.js';
import type { SocialUpstream } from './upstream/upstream.port.js';

/** The long-lived services of the lens subgraph, shared by every request and the job runner. */
export interface LensServices {
  operations: OperationService;
  /** What a tenant is offered here: the MCP front's tool list. */
  catalogue: OperationCatalogue;
  execution: ExecutionService;
  queries: OperationQueryService;
  credits: CreditsService;
  ledger: LedgerQueryService;
  reconciliation: ReconciliationService;
  tenants: TenantService;
  observations: AccountObservationService;
  /** The account console (issue 24): credentials, usage, the tenant's alert. */
  credentials: CredentialService;
  usage: UsageService;
  accounts: TenantRepository;
}

type EngineConfig = Pick<
  LensConfig,
  | 'LENS_CURSOR_SECRET'
  | 'LENS_DISABLED_OPERATIONS'
  | 'LENS_PRICES'
  | 'LENS_SYNC_BUDGET_MS'
  | 'LENS_LEASE_MS'
> &
  Partial<Pick<LensConfig, 'LENS_KEY_ROTATION_GRACE_SECONDS'>>;

/**
 * Every lens service, made here once and in no other way: each gets the services it uses, so
 * that one CreditsService (and one of everything else) serves the engine, the job runner and
 * the resolvers, which reach them through the request context. Fails at start on deployment
 * settings that name unknown operations.
 */
export function createLensServices(
  config: EngineConfig,
  parts: {
    upstream: SocialUpstream;
    logger: Logger;
    /** Run accepted operations at once in this process (default); see EngineSettings. */
    inline?: boolean;
  },
): LensServices {
  const definitions = createLensOperations({ cursorSecret: config.LENS_CURSOR_SECRET });
  const unknownDisabled = config.LENS_DISABLED_OPERATIONS.filter((name) => !definitions.has(name));
  if (unknownDisabled.length) {
    throw new Error(
      `LENS_DISABLED_OPERATIONS names unknown operations: ${unknownDisabled.join(', ')}`,
    );
  }
  const prices = PriceBook.checked(config.LENS_PRICES, definitions.keys());
  const events = new OperationEvents();
  const credits = new CreditsService();
  const observations = new AccountObservationService();
  const access = new AccessPolicy(config.LENS_DISABLED_OPERATIONS);
  const tenants = new TenantService(credits);
  const execution = new ExecutionService({
    upstream: parts.upstream,
    logger: parts.logger,
    prices,
    definitions,
    observations,
    events,
    leaseMs: config.LENS_LEASE_MS,
  });
  return {
    operations: new OperationService(
      {
        definitions,
        execution,
        access,
        prices,
        events,
      },
      {
        syncBudgetMs: config.LENS_SYNC_BUDGET_MS,
        leaseMs: config.LENS_LEASE_MS,
        inline: parts.inline ?? true,
      },
    ),
    catalogue: new OperationCatalogue(definitions, access, prices),
    execution,
    queries: new OperationQueryService(),
    credits,
    ledger: new LedgerQueryService(),
    reconciliation: new ReconciliationService(execution),
    tenants,
    observations,
    credentials: new CredentialService({
      rotationGraceSeconds: config.LENS_KEY_ROTATION_GRACE_SECONDS ?? 86_400,
      forget: (keyHash) => tenants.forgetKey(keyHash),
    }),
    usage: new UsageService(),
    accounts: new TenantRepository(),
  };
}
