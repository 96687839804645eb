import type { EntityManager } from '@mikro-orm/postgresql';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { Agency } from '../agency/agency.entity.js';
import type { Principal } from '../../kernel/principal.js';
import { Partner } from '../partner/partner.entity.js';
import { linesOf } from './quotation-lines.js';
import type { QuotationDraftLine } from './quotation-rules.js';
import { readQuotation, type QuotationInputValues } from './quotation-rules.js';
import {
  quotationFileName,
  quotationWorkbook,
  XLSX_CONTENT_TYPE,
  type QuotationSheet,
} from './quotation-workbook.js';
import type { QuotationFile } from './quotation.inputs.js';
import type { QuotationService } from './quotation.service.js';

/** The workbook as GraphQL carries it: the REST adapter decodes `base64` and sends the bytes. */
async function fileOf(sheet: QuotationSheet): Promise<QuotationFile> {
  const bytes = await quotationWorkbook(sheet);
  return {
    fileName: quotationFileName(sheet.id, sheet.title),
    contentType: XLSX_CONTENT_TYPE,
    base64: bytes.toString('base64'),
  };
}

/** The lines with their partners' names, in one query. */
async function namedLines(em: EntityManager, lines: readonly QuotationDraftLine[]) {
  const ids = [...new Set(lines.map((line) => line.partnerId))];
  const partners = await em.find(Partner, { id: { $in: ids } }, { fields: ['id', 'name'] });
  const names = new Map(partners.map((partner) => [partner.id, partner.name]));
  return lines.map((line) => ({ ...line, partnerName: names.get(line.partnerId) ?? '' }));
}

/** Download and generate (spec 4.5): real XLSX workbooks (quotation-workbook.ts). */
export class QuotationFiles {
  constructor(private readonly quotations: QuotationService) {}

  /** GET .../download: the saved quotation as it is now. */
  async download(em: EntityManager, actor: Principal, id: string): Promise<QuotationFile> {
    const quotation = await this.quotations.get(em, actor, id);
    const [advertiser, agency, lines] = await Promise.all([
      em.findOneOrFail(Advertiser, { id: quotation.advertiserId }),
      em.findOneOrFail(
        Agency,
        quotation.agencyId === null ? { isDefault: true } : { id: quotation.agencyId },
      ),
      linesOf(em, id),
    ]);
    return fileOf({
      id: quotation.id,
      title: quotation.title,
      status: quotation.status,
      advertiserName: advertiser.name,
      agencyName: agency.name,
      createdAt: quotation.createdAt,
      validUntil: quotation.validUntil,
      lines: await namedLines(em, lines),
      supplyAmount: quotation.supplyAmount,
      vatAmount: quotation.vatAmount,
      totalAmount: quotation.totalAmount,
    });
  }

  /** POST .../generate: the create body, checked like create (400/404/409), saved nowhere. */
  async generate(
    em: EntityManager,
    actor: Principal,
    input: QuotationInputValues,
  ): Promise<QuotationFile> {
    const q = await this.quotations.resolve(em, actor, readQuotation(input));
    return fileOf({
      id: null,
      title: q.title,
      status: 'DRAFT',
      advertiserName: q.advertiser.name,
      agencyName: q.agency.name,
      createdAt: new Date(),
      validUntil: q.validUntil,
      lines: await namedLines(em, q.lines),
      supplyAmount: q.supplyAmount,
      vatAmount: q.vatAmount,
      totalAmount: q.totalAmount,
    });
  }
}
