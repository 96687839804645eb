import { describe, expect, it } from 'vitest';

import { InvalidStatusTransitionError } from './settlement-errors.js';
import {
  type MoveContext,
  type MoveTrigger,
  allowedMoves,
  allowedMovesTable,
  assertMoveAllowed,
  isMoveAllowed,
  isTerminal,
} from './settlement-moves.js';
import {
  type SettlementStatus,
  settlementStatuses,
  settlementTypes,
} from '../../kernel/settlement-types.js';

/** Spec section 3, written out independently of the module's table. */
const specAllowed = new Set([
  'SETTLEMENT_PENDING>AWAITING_ADVERTISER_PAYMENT',
  'SETTLEMENT_PENDING>SETTLEMENT_CANCELLED',
  'AWAITING_ADVERTISER_PAYMENT>ADVERTISER_PAID',
  'AWAITING_ADVERTISER_PAYMENT>SETTLEMENT_CANCELLED',
  'ADVERTISER_PAID>PARTNER_PAYOUT_PROCESSING',
  'ADVERTISER_PAID>SETTLEMENT_CANCELLED',
  'PARTNER_PAYOUT_PROCESSING>SETTLEMENT_COMPLETED',
  'PARTNER_PAYOUT_PROCESSING>SETTLEMENT_CANCELLED',
]);

const pairs = settlementStatuses.flatMap((from) =>
  settlementStatuses.map((to) => ({ from, to, allowed: specAllowed.has(`${from}>${to}`) })),
);

const triggers: readonly MoveTrigger[] = [
  'status',
  'request',
  'start-payout',
  'complete',
  'cancel',
  'invoice-paid',
];

const isException = (from: SettlementStatus, to: SettlementStatus, context: MoveContext) =>
  context.settlementType === 'DIRECT_INVOICE' &&
  context.via === 'invoice-paid' &&
  from === 'AWAITING_ADVERTISER_PAYMENT' &&
  to === 'SETTLEMENT_COMPLETED';

describe('settlement moves', () => {
  it('has six statuses and 36 pairs', () => {
    expect(settlementStatuses).toHaveLength(6);
    expect(pairs).toHaveLength(36);
    expect(Object.keys(allowedMovesTable).sort()).toEqual([...settlementStatuses].sort());
  });

  it.each(pairs)('$from -> $to: allowed=$allowed', ({ from, to, allowed }) => {
    expect(isMoveAllowed(from, to)).toBe(allowed);
    expect(allowedMovesTable[from].includes(to)).toBe(allowed);
    if (allowed) {
      expect(() => assertMoveAllowed(from, to)).not.toThrow();
    } else {
      expect(() => assertMoveAllowed(from, to)).toThrow(InvalidStatusTransitionError);
    }
    for (const settlementType of settlementTypes) {
      for (const via of triggers) {
        const context = { settlementType, via };
        const expected = allowed || isException(from, to, context);
        expect(isMoveAllowed(from, to, context), `${settlementType} via ${via}`).toBe(expected);
      }
    }
  });

  describe('the DIRECT_INVOICE invoice-paid exception', () => {
    const from = 'AWAITING_ADVERTISER_PAYMENT';
    const to = 'SETTLEMENT_COMPLETED';

    it('allows AWAITING_ADVERTISER_PAYMENT -> SETTLEMENT_COMPLETED', () => {
      expect(() =>
        assertMoveAllowed(from, to, { settlementType: 'DIRECT_INVOICE', via: 'invoice-paid' }),
      ).not.toThrow();
      expect(allowedMoves(from, { settlementType: 'DIRECT_INVOICE', via: 'invoice-paid' })).toEqual(
        ['ADVERTISER_PAID', 'SETTLEMENT_CANCELLED', 'SETTLEMENT_COMPLETED'],
      );
    });

    it('does not apply to PLATFORM_SETTLEMENT invoice-paid', () => {
      expect(() =>
        assertMoveAllowed(from, to, { settlementType: 'PLATFORM_SETTLEMENT', via: 'invoice-paid' }),
      ).toThrow(InvalidStatusTransitionError);
    });

    it.each(triggers.filter((via) => via !== 'invoice-paid'))(
      'does not apply to DIRECT_INVOICE via %s',
      (via) => {
        expect(() =>
          assertMoveAllowed(from, to, { settlementType: 'DIRECT_INVOICE', via }),
        ).toThrow(InvalidStatusTransitionError);
      },
    );

    it.each([
      'SETTLEMENT_PENDING',
      'ADVERTISER_PAID',
      'SETTLEMENT_CANCELLED',
      'SETTLEMENT_COMPLETED',
    ] as const)('does not let DIRECT_INVOICE invoice-paid complete from %s', (status) => {
      expect(
        isMoveAllowed(status, to, { settlementType: 'DIRECT_INVOICE', via: 'invoice-paid' }),
      ).toBe(false);
    });

    it('leaves the table itself unchanged', () => {
      allowedMoves(from, { settlementType: 'DIRECT_INVOICE', via: 'invoice-paid' });
      expect(allowedMovesTable[from]).toEqual(['ADVERTISER_PAID', 'SETTLEMENT_CANCELLED']);
      expect(allowedMoves(from)).toEqual(['ADVERTISER_PAID', 'SETTLEMENT_CANCELLED']);
    });
  });

  describe('the error', () => {
    it('names the current status and the allowed moves for a 409', () => {
      try {
        assertMoveAllowed('SETTLEMENT_PENDING', 'SETTLEMENT_COMPLETED', {
          settlementType: 'PLATFORM_SETTLEMENT',
          via: 'complete',
        });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidStatusTransitionError);
        expect(error).toMatchObject({
          code: 'INVALID_STATUS_TRANSITION',
          currentStatus: 'SETTLEMENT_PENDING',
          requestedStatus: 'SETTLEMENT_COMPLETED',
          allowedMoves: ['AWAITING_ADVERTISER_PAYMENT', 'SETTLEMENT_CANCELLED'],
          extensions: {
            code: 'INVALID_STATUS_TRANSITION',
            httpStatus: 409,
            retryable: false,
            currentStatus: 'SETTLEMENT_PENDING',
            requestedStatus: 'SETTLEMENT_COMPLETED',
            allowedMoves: ['AWAITING_ADVERTISER_PAYMENT', 'SETTLEMENT_CANCELLED'],
          },
        });
        expect((error as Error).message).toBe(
          'Cannot move settlement from SETTLEMENT_PENDING to SETTLEMENT_COMPLETED; allowed ' +
            'moves from SETTLEMENT_PENDING: AWAITING_ADVERTISER_PAYMENT, SETTLEMENT_CANCELLED',
        );
      }
    });

    it('says a terminal status allows no move', () => {
      expect(() => assertMoveAllowed('SETTLEMENT_CANCELLED', 'SETTLEMENT_PENDING')).toThrow(
        'SETTLEMENT_CANCELLED is terminal; no move is allowed',
      );
      expect(() => assertMoveAllowed('SETTLEMENT_COMPLETED', 'SETTLEMENT_CANCELLED')).toThrow(
        expect.objectContaining({ allowedMoves: [] }),
      );
    });

    it('lists the exception among the allowed moves when it applies', () => {
      expect(() =>
        assertMoveAllowed('AWAITING_ADVERTISER_PAYMENT', 'SETTLEMENT_PENDING', {
          settlementType: 'DIRECT_INVOICE',
          via: 'invoice-paid',
        }),
      ).toThrow(
        expect.objectContaining({
          allowedMoves: ['ADVERTISER_PAID', 'SETTLEMENT_CANCELLED', 'SETTLEMENT_COMPLETED'],
        }),
      );
    });
  });

  it.each(settlementStatuses)('isTerminal(%s)', (status) => {
    const terminal = status === 'SETTLEMENT_COMPLETED' || status === 'SETTLEMENT_CANCELLED';
    expect(isTerminal(status)).toBe(terminal);
    expect(allowedMoves(status).length === 0).toBe(terminal);
  });

  it('lets every non-terminal status be cancelled', () => {
    for (const status of settlementStatuses.filter((s) => !isTerminal(s))) {
      expect(isMoveAllowed(status, 'SETTLEMENT_CANCELLED')).toBe(true);
    }
  });
});
