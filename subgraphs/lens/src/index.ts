/** The lens package's public face: what the CLI, the seed, the tools and the tests may use. */
export { loadLensConfig, type LensConfig } from './config.js';
export { initLensOrm, migrateLens } from './orm.js';
export { createLensServices } from './services.js';
export { TenantService, type Caller } from './tenant/tenant.service.js';
export { CredentialService } from './tenant/credential.service.js';
export { TenantRepository } from './tenant/tenant.repository.js';
export { hashKey } from './tenant/api-key.js';
export { PLANS } from './tenant/plans.js';
export { CreditsService } from './credits/credits.service.js';
export { inputHash } from './operation/canonical.js';
export { Reconciler } from './operation/reconciler.js';
export type { SocialUpstream } from './upstream/upstream.port.js';
