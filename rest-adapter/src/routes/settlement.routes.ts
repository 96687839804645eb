import type { Route } from '../route.js';
import {
  ADMIN_SETTLEMENT,
  REVERSE_ISSUANCE_FIELDS,
  action,
  getById,
  list,
} from './settlement-fields.js';

export { SETTLEMENT_FIELDS } from './settlement-fields.js';

const base = '/api/admin/settlements';

/** Spec section 4.1: every admin settlement path, each one GraphQL operation named after it. */
export const settlementRoutes: Route<never>[] = [
  list(base, 'settlements', 'SettlementFilter', ADMIN_SETTLEMENT),
  getById(`${base}/:id`, 'settlement', ADMIN_SETTLEMENT),
  getById(
    `${base}/:id/reverse-issuance-status`,
    'settlementReverseIssuanceStatus',
    REVERSE_ISSUANCE_FIELDS,
  ),
  action(
    'PATCH',
    `${base}/:id/status`,
    'changeSettlementStatus',
    'ChangeSettlementStatusInput',
    ADMIN_SETTLEMENT,
    true,
  ),
  action(
    'PATCH',
    `${base}/:id/type`,
    'changeSettlementType',
    'ChangeSettlementTypeInput',
    ADMIN_SETTLEMENT,
    true,
  ),
  action(
    'POST',
    `${base}/:id/start-payout`,
    'startSettlementPayout',
    'SettlementActionInput',
    ADMIN_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/complete`,
    'completeSettlement',
    'CompleteSettlementInput',
    ADMIN_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/retry-issuance`,
    'retrySettlementIssuance',
    'SettlementActionInput',
    ADMIN_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/invoice-issued`,
    'markSettlementInvoiceIssued',
    'SettlementActionInput',
    ADMIN_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/invoice-paid`,
    'markSettlementInvoicePaid',
    'SettlementActionInput',
    ADMIN_SETTLEMENT,
  ),
  action(
    'POST',
    `${base}/:id/cancel`,
    'cancelSettlement',
    'SettlementActionInput',
    ADMIN_SETTLEMENT,
  ),
];
