import type { Decimal } from 'decimal.js';
import { z } from 'zod';
import { seoulDay } from '../../kernel/seoul-day.js';
import { PlatformError } from '@campaign/schema';
import { parseInput, text } from '../../kernel/input-rules.js';
import { InvalidAmountError, InvalidRateError } from '../../kernel/money/money-errors.js';
import {
  formatMoney,
  MAX_MONEY,
  MONEY_TEXT,
  parseMoney,
  sumMoney,
} from '../../kernel/money/money.js';
import { parseRate, RATE_TEXT } from '../../kernel/money/rate.js';
import { isCalendarDate } from '../settlement/list-args.js';
import { calculateQuotationAmounts, type QuotationAmounts } from './quotation-amounts.js';

/** A quotation holds 1 to 1,000 lines (DESIGN.md 5). */
export const MAX_LINES = 1000;

/** What createQuotation, updateQuotation and generateQuotationWorkbook take, as GraphQL typed it. */
export interface QuotationInputValues {
  advertiserId: number;
  agencyId?: number | null;
  title: string;
  validUntil: string;
  lines: readonly {
    partnerId: number;
    deliverable: string;
    price: string;
    commissionRate?: string | null;
  }[];
}

export interface QuotationDraftLine {
  partnerId: string;
  deliverable: string;
  price: Decimal;
  commissionRate: Decimal | null;
}

/** A quotation body once read: ids as strings, money as Decimals, with its amounts. */
export interface QuotationDraft extends QuotationAmounts {
  advertiserId: string;
  agencyId: string | null;
  title: string;
  validUntil: string;
  lines: QuotationDraftLine[];
}

/**
 * The money module's rule as a zod step: its message, under the path of the field; `text` is the
 * rule's form as a pattern, which the published schemas state.
 */
const decimal = <T>(parse: (value: string) => T, text: RegExp) =>
  z
    .string()
    .meta({ pattern: text.source })
    .transform((value, ctx) => {
      try {
        return parse(value);
      } catch (error) {
        if (!(error instanceof InvalidAmountError || error instanceof InvalidRateError))
          throw error;
        ctx.addIssue({ code: 'custom', message: error.message.trim() });
        return z.NEVER;
      }
    });

const linesMessage = `must hold 1 to ${MAX_LINES} lines.`;

export const quotationLineRules = z.object({
  partnerId: z.int().positive(),
  deliverable: text(200),
  price: decimal((value) => parseMoney(value, ''), MONEY_TEXT),
  commissionRate: decimal((value) => parseRate(value, ''), RATE_TEXT).nullish(),
});

export const quotationRules = z.object({
  advertiserId: z.int().positive(),
  agencyId: z.int().positive().nullish(),
  title: text(200),
  validUntil: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date written YYYY-MM-DD.' })
    .refine((date) => isCalendarDate(date.slice(0, 4), date.slice(5, 7), date.slice(8, 10)), {
      error: 'is not a calendar date.',
    })
    // The refinement above as the published schemas state it.
    .meta({ format: 'date' }),
  lines: z
    .array(quotationLineRules)
    .min(1, { error: linesMessage })
    .max(MAX_LINES, { error: linesMessage }),
});

/**
 * Reads a quotation body (400 INVALID_REQUEST naming the first bad field, e.g.
 * `lines.3.price must have at most 2 decimal places`) and computes its amounts with the
 * invoices' VAT rule; a total past numeric(15,2) is a 400 too. Nothing is looked up here.
 */
export function readQuotation(
  input: QuotationInputValues,
  today = seoulDay(new Date()),
): QuotationDraft {
  const body = parseInput(quotationRules, { ...input, lines: [...(input.lines ?? [])] });
  // A quotation valid until a day already past could only be executed expired (issue 23).
  if (body.validUntil < today) {
    throw new PlatformError(
      'INVALID_REQUEST',
      `validUntil ${body.validUntil} is in the past (today is ${today} in Asia/Seoul).`,
      { field: 'validUntil' },
    );
  }
  const lines = body.lines.map((line) => ({
    partnerId: String(line.partnerId),
    deliverable: line.deliverable,
    price: line.price,
    commissionRate: line.commissionRate ?? null,
  }));
  // Checked before the VAT rule, which would name its own `subtotal` instead of the lines.
  if (sumMoney(lines.map((line) => line.price)).greaterThan(MAX_MONEY)) throw tooLarge();
  const amounts = calculateQuotationAmounts(lines);
  if (amounts.totalAmount.greaterThan(MAX_MONEY)) throw tooLarge();
  return {
    advertiserId: String(body.advertiserId),
    agencyId: body.agencyId === null || body.agencyId === undefined ? null : String(body.agencyId),
    title: body.title,
    validUntil: body.validUntil,
    lines,
    ...amounts,
  };
}

const tooLarge = () =>
  new PlatformError(
    'INVALID_REQUEST',
    `lines: the quotation's total (VAT included) must not exceed ${formatMoney(MAX_MONEY)}.`,
    { field: 'lines' },
  );
