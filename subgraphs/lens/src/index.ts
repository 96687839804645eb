export { loadLensConfig, type LensConfig } from './config.js';
export { initLensOrm, migrateLens } from './orm.js';
export { startLensSubgraph } from './server.js';
export { TenantService } from './tenant/tenant.service.js';
export { CreditsService } from './credits/credits.service.js';
