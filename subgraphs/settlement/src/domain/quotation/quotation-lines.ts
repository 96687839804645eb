import type { EntityManager } from '@mikro-orm/postgresql';
import type { QuotationDraftLine } from './quotation-rules.js';
import { QuotationLine } from './quotation.entity.js';

/** The lines of one quotation, in order. */
export function linesOf(em: EntityManager, quotationId: string): Promise<QuotationLine[]> {
  return em.find(QuotationLine, { quotationId }, { orderBy: { lineNo: 'asc' } });
}

/** Replaces the quotation's lines with `lines` (numbered from 1), in one insert. */
export async function writeLines(
  tx: EntityManager,
  quotationId: string,
  lines: readonly QuotationDraftLine[],
): Promise<void> {
  await tx.nativeDelete(QuotationLine, { quotationId });
  await tx.insertMany(
    QuotationLine,
    lines.map((line, i) => ({
      quotationId,
      lineNo: i + 1,
      partnerId: line.partnerId,
      deliverable: line.deliverable,
      price: line.price,
      commissionRate: line.commissionRate,
      campaignId: null,
    })),
  );
}

/** Records on each line the campaign its execution created (ids in line order). */
export async function linkCampaigns(
  tx: EntityManager,
  quotationId: string,
  lines: readonly QuotationLine[],
  campaignIds: readonly string[],
): Promise<void> {
  await tx.execute(
    `update quotation_line l set campaign_id = c.id
     from unnest(?::int[], ?::text[]) as c(line_no, id)
     where l.quotation_id = ? and l.line_no = c.line_no`,
    [`{${lines.map((line) => line.lineNo).join(',')}}`, `{${campaignIds.join(',')}}`, quotationId],
  );
}
