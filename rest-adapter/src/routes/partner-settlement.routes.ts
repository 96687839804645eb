import type { Route } from '../route.js';
import { PARTNER_SETTLEMENT, action, getById, getOne, list } from './settlement-fields.js';

const base = '/api/partner/settlements';

const SUMMARY = `byStatus { status count campaignPrice settlementAmount withholdingTaxAmount payoutAmount }
  totalCount campaignPrice settlementAmount withholdingTaxAmount payoutAmount`;

/** Spec section 4.2: a partner's own settlements, each path one GraphQL operation. */
export const partnerSettlementRoutes: Route<never>[] = [
  list(base, 'partnerSettlements', 'PartnerSettlementFilter', PARTNER_SETTLEMENT),
  getOne(`${base}/summary`, 'partnerSettlementSummary', SUMMARY),
  getById(`${base}/:id`, 'partnerSettlement', PARTNER_SETTLEMENT),
  action(
    'POST',
    `${base}/:id/request`,
    'requestSettlement',
    'SettlementActionInput',
    PARTNER_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/invoice-issued`,
    'partnerMarkInvoiceIssued',
    'SettlementActionInput',
    PARTNER_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/invoice-paid`,
    'partnerMarkInvoicePaid',
    'SettlementActionInput',
    PARTNER_SETTLEMENT,
  ),
  getById(
    `${base}/:id/reverse-issuance-grant-url`,
    'reverseIssuanceGrantUrl',
    'settlementId grantUrl expiresAt',
  ),
];
