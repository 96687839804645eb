/** Quotation statuses and their allowed moves (DESIGN.md S14), as data in one place. */
export const QUOTATION_STATUSES = ['DRAFT', 'SENT', 'ACCEPTED', 'EXECUTED', 'CANCELLED'] as const;
export type QuotationStatus = (typeof QUOTATION_STATUSES)[number];

const MOVES: Record<QuotationStatus, readonly QuotationStatus[]> = {
  DRAFT: ['SENT', 'CANCELLED'],
  SENT: ['ACCEPTED', 'CANCELLED'],
  ACCEPTED: ['EXECUTED', 'CANCELLED'],
  EXECUTED: [],
  CANCELLED: [],
};

export function allowedQuotationMoves(from: QuotationStatus): readonly QuotationStatus[] {
  return MOVES[from];
}

export function canMoveQuotation(from: QuotationStatus, to: QuotationStatus): boolean {
  return MOVES[from].includes(to);
}

/** Only a draft can be edited: what was sent to an advertiser stays as sent. */
export const isEditable = (status: QuotationStatus) => status === 'DRAFT';
