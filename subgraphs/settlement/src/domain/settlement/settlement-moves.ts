import { InvalidStatusTransitionError } from './settlement-errors.js';
import type { SettlementStatus, SettlementType } from '../../kernel/settlement-types.js';

/** The allowed-moves table of spec section 3; any move not listed is not allowed. */
export const allowedMovesTable: Readonly<Record<SettlementStatus, readonly SettlementStatus[]>> = {
  SETTLEMENT_PENDING: ['AWAITING_ADVERTISER_PAYMENT', 'SETTLEMENT_CANCELLED'],
  AWAITING_ADVERTISER_PAYMENT: ['ADVERTISER_PAID', 'SETTLEMENT_CANCELLED'],
  ADVERTISER_PAID: ['PARTNER_PAYOUT_PROCESSING', 'SETTLEMENT_CANCELLED'],
  PARTNER_PAYOUT_PROCESSING: ['SETTLEMENT_COMPLETED', 'SETTLEMENT_CANCELLED'],
  SETTLEMENT_COMPLETED: [],
  SETTLEMENT_CANCELLED: [],
};

/**
 * The action that asks for a move. `tax-invoice-issued` is the specification's "success step" of
 * retry-issuance: the provider issued the advertiser's tax invoice while the settlement was still
 * SETTLEMENT_PENDING, which moves it to AWAITING_ADVERTISER_PAYMENT (a move of the table).
 */
export type MoveTrigger =
  | 'status'
  | 'request'
  | 'start-payout'
  | 'complete'
  | 'cancel'
  | 'invoice-paid'
  | 'tax-invoice-issued';

export interface MoveContext {
  settlementType: SettlementType;
  via: MoveTrigger;
}

/**
 * The one exception to the table (spec 3, DESIGN S2): for DIRECT_INVOICE, invoice-paid moves
 * AWAITING_ADVERTISER_PAYMENT straight to SETTLEMENT_COMPLETED.
 */
const directInvoicePaid = {
  settlementType: 'DIRECT_INVOICE',
  via: 'invoice-paid',
  from: 'AWAITING_ADVERTISER_PAYMENT',
  to: 'SETTLEMENT_COMPLETED',
} as const satisfies MoveContext & { from: SettlementStatus; to: SettlementStatus };

/** The moves allowed from `status`: the table's, plus the exception when `context` fits it. */
export function allowedMoves(
  status: SettlementStatus,
  context?: MoveContext,
): readonly SettlementStatus[] {
  const moves = allowedMovesTable[status];
  if (
    context?.settlementType === directInvoicePaid.settlementType &&
    context.via === directInvoicePaid.via &&
    status === directInvoicePaid.from &&
    !moves.includes(directInvoicePaid.to)
  ) {
    return [...moves, directInvoicePaid.to];
  }
  return moves;
}

export function isMoveAllowed(
  from: SettlementStatus,
  to: SettlementStatus,
  context?: MoveContext,
): boolean {
  return allowedMoves(from, context).includes(to);
}

/** Throws {@link InvalidStatusTransitionError} (409) unless `from` may move to `to`. */
export function assertMoveAllowed(
  from: SettlementStatus,
  to: SettlementStatus,
  context?: MoveContext,
): void {
  const moves = allowedMoves(from, context);
  if (!moves.includes(to)) throw new InvalidStatusTransitionError(from, to, moves);
}

/** SETTLEMENT_COMPLETED and SETTLEMENT_CANCELLED: no move leaves them. */
export function isTerminal(status: SettlementStatus): boolean {
  return allowedMovesTable[status].length === 0;
}
