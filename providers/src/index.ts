/** The simulated outside systems, each speaking its real protocol on loopback. */
export { startSocialUpstreamSimulator } from './social-upstream/index.js';
export { startMailSink } from './mail-sink/index.js';
export { startTeamChatSimulator } from './team-chat/index.js';
export { startTaxInvoiceSimulator } from './tax-invoice/index.js';
export { startTaxAuthoritySimulator } from './tax-authority/index.js';
