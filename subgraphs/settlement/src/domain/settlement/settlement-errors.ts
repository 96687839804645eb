import { PlatformError } from '@campaign/schema';

import type { SettlementStatus } from '../../kernel/settlement-types.js';

/** How a refused move names what is possible from `from` (settlements and quotations alike). */
export const allowedMovesPhrase = (from: string, allowedMoves: readonly string[]): string =>
  allowedMoves.length === 0
    ? `${from} is terminal; no move is allowed`
    : `allowed moves from ${from}: ${allowedMoves.join(', ')}`;

/**
 * A status move outside the allowed-moves table; a 409 INVALID_STATUS_TRANSITION whose
 * extensions name the current status, the requested one and the moves allowed from it.
 */
export class InvalidStatusTransitionError extends PlatformError {
  readonly currentStatus: SettlementStatus;
  readonly requestedStatus: SettlementStatus;
  readonly allowedMoves: readonly SettlementStatus[];

  constructor(
    currentStatus: SettlementStatus,
    requestedStatus: SettlementStatus,
    allowedMoves: readonly SettlementStatus[],
  ) {
    const allowed = allowedMovesPhrase(currentStatus, allowedMoves);
    super(
      'INVALID_STATUS_TRANSITION',
      `Cannot move settlement from ${currentStatus} to ${requestedStatus}; ${allowed}`,
      { currentStatus, requestedStatus, allowedMoves: [...allowedMoves] },
    );
    this.name = 'InvalidStatusTransitionError';
    this.currentStatus = currentStatus;
    this.requestedStatus = requestedStatus;
    this.allowedMoves = allowedMoves;
  }
}

/** Inputs whose commission would exceed the campaign price; a 400 INVALID_REQUEST. */
export class InvalidSettlementAmountsError extends PlatformError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('INVALID_REQUEST', message, details);
    this.name = 'InvalidSettlementAmountsError';
  }
}
