import { describe, expect, it } from 'vitest';
import { campaignTitle } from '../../flows/quotation/quotation-execution.js';
import { InvalidQuotationMoveError } from './quotation-errors.js';
import { MAX_LINES, readQuotation, type QuotationInputValues } from './quotation-rules.js';

const line = { partnerId: 1, deliverable: '1 reel', price: '1000000.00', commissionRate: '15' };
const body = (lines = 1, extra: Partial<QuotationInputValues> = {}): QuotationInputValues => ({
  advertiserId: 1,
  title: 'Spring launch',
  validUntil: '2099-12-31',
  lines: Array.from({ length: lines }, () => line),
  ...extra,
});

const problem = (input: QuotationInputValues) => {
  try {
    readQuotation(input);
    return null;
  } catch (error) {
    return `${(error as { code: string }).code}: ${(error as Error).message}`;
  }
};

describe('quotation body', () => {
  it('reads ids as strings, money as Decimals, and computes the amounts', () => {
    const draft = readQuotation(body(2, { agencyId: 2 }));
    expect(draft).toMatchObject({ advertiserId: '1', agencyId: '2', validUntil: '2099-12-31' });
    expect(draft.lines[0]).toMatchObject({ partnerId: '1', deliverable: '1 reel' });
    expect(draft.lines[0]!.commissionRate?.toFixed(2)).toBe('15.00');
    expect(
      [draft.supplyAmount, draft.vatAmount, draft.totalAmount].map((d) => d.toFixed(2)),
    ).toEqual(['2000000.00', '200000.00', '2200000.00']);
    expect(readQuotation(body(1, { agencyId: null })).agencyId).toBeNull();
  });

  it.each([
    [0, false],
    [1, true],
    [MAX_LINES, true],
    [MAX_LINES + 1, false],
  ])('%i lines: accepted %s', (count, accepted) => {
    expect(problem(body(count))).toBe(
      accepted ? null : 'INVALID_REQUEST: lines must hold 1 to 1000 lines.',
    );
  });

  it.each([
    [{ ...line, price: '1.005' }, 'lines.0.price must have at most 2 decimal places'],
    [{ ...line, price: '1e3' }, 'lines.0.price must be a decimal number such as "1500.00"'],
    [{ ...line, price: '-1' }, 'lines.0.price must not be negative'],
    [{ ...line, commissionRate: '100.5' }, 'lines.0.commissionRate must be between 0 and 100'],
    [{ ...line, deliverable: '' }, 'lines.0.deliverable must be 1 to 200 characters.'],
  ])('a bad line is named: %j', (bad, message) => {
    expect(problem(body(1, { lines: [bad] }))).toBe(`INVALID_REQUEST: ${message}`);
  });

  it('dates are real calendar dates written YYYY-MM-DD', () => {
    expect(problem(body(1, { validUntil: '2028-02-29' }))).toBeNull();
    expect(problem(body(1, { validUntil: '2027-02-29' }))).toMatch(/validUntil is not a calendar/);
    expect(problem(body(1, { validUntil: '2027-2-1' }))).toMatch(/validUntil must be a date/);
  });

  it('a total past numeric(15,2) is refused before anything is stored', () => {
    const max = { ...line, price: '9999999999999.99' };
    expect(problem(body(1, { lines: [max] }))).toMatch(/lines: the quotation's total/);
    expect(problem(body(1, { lines: [max, max] }))).toMatch(/lines: the quotation's total/);
  });
});

describe('execution helpers', () => {
  it('campaign titles are cut to 200 characters without splitting a character', () => {
    expect(campaignTitle('Launch', 'Reel')).toBe('Launch: Reel');
    const cut = campaignTitle('😀'.repeat(150), 'x');
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).toBe('😀'.repeat(100));
  });

  it('a refused move names the allowed ones', () => {
    const error = new InvalidQuotationMoveError('QUO1', 'SENT', 'EXECUTED');
    expect(error.message).toBe(
      'Cannot move quotation QUO1 from SENT to EXECUTED; allowed moves from SENT: ACCEPTED, CANCELLED.',
    );
    expect(error.extensions).toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      currentStatus: 'SENT',
      allowedMoves: ['ACCEPTED', 'CANCELLED'],
    });
  });
});
