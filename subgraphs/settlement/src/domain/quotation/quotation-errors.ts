import { PlatformError } from '@campaign/schema';
import { allowedMovesPhrase } from '../settlement/settlement-errors.js';
import { allowedQuotationMoves, type QuotationStatus } from './quotation-moves.js';

/**
 * A quotation move outside the table of quotation-moves.ts: 409 INVALID_STATUS_TRANSITION whose
 * message and extensions name the current status and the allowed moves, as for settlements.
 */
export class InvalidQuotationMoveError extends PlatformError {
  constructor(id: string, from: QuotationStatus, to: QuotationStatus) {
    const allowedMoves = allowedQuotationMoves(from);
    const allowed = allowedMovesPhrase(from, allowedMoves);
    super(
      'INVALID_STATUS_TRANSITION',
      `Cannot move quotation ${id} from ${from} to ${to}; ${allowed}.`,
      { currentStatus: from, requestedStatus: to, allowedMoves: [...allowedMoves] },
    );
    this.name = 'InvalidQuotationMoveError';
  }
}

/** Another change of the quotation committed first: nothing was written (409, retryable). */
export const concurrentQuotationChange = (id: string) =>
  new PlatformError(
    'CONCURRENT_MODIFICATION',
    `Quotation ${id} was changed by another request at the same time; read it again and retry.`,
  );
