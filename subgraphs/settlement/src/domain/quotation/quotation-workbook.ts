import type { Decimal } from 'decimal.js';

/** What a quotation workbook shows; names are resolved by the caller. */
export interface QuotationSheet {
  id: string | null;
  title: string;
  status: string;
  advertiserName: string;
  agencyName: string | null;
  createdAt: Date | null;
  validUntil: string;
  lines: readonly {
    partnerName: string;
    deliverable: string;
    price: Decimal;
    commissionRate: Decimal | null;
  }[];
  supplyAmount: Decimal;
  vatAmount: Decimal;
  totalAmount: Decimal;
}

export const XLSX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MONEY_FORMAT = '#,##0.00';
const RATE_FORMAT = '0.00"%"';
const HEADER_ROWS = 7;

/** The calendar day in Asia/Seoul, as the documents' numbers count days: YYYY-MM-DD. */
const seoulDate = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(at);

/**
 * Numbers are written as numbers (decimal strings of at most 15 significant digits are exact in a
 * spreadsheet's double), each with a number format, so totals can be summed and checked in the
 * program that opens the file. Rows: a header block (id, title, status, advertiser, agency, valid
 * until, date), the line table, then supply, VAT and total.
 */
export async function quotationWorkbook(sheet: QuotationSheet): Promise<Buffer> {
  // Loaded on first use: exceljs adds about 27 MB to every settlement process (issue 14).
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'campaign-platform';
  book.created = sheet.createdAt ?? new Date(0);
  const ws = book.addWorksheet('Quotation');
  ws.columns = [
    { key: 'no', width: 6 },
    { key: 'partner', width: 32 },
    { key: 'deliverable', width: 40 },
    { key: 'price', width: 18 },
    { key: 'rate', width: 16 },
  ];
  const header: [string, string][] = [
    ['Quotation', sheet.id ?? '(not saved)'],
    ['Title', sheet.title],
    ['Status', sheet.status],
    ['Advertiser', sheet.advertiserName],
    ['Agency', sheet.agencyName ?? '(default agency)'],
    ['Valid until', sheet.validUntil],
    ['Date', sheet.createdAt ? seoulDate(sheet.createdAt) : '(not saved)'],
  ];
  header.forEach(([label, value], i) => {
    const row = ws.getRow(i + 1);
    row.getCell(1).value = label;
    row.getCell(1).font = { bold: true };
    row.getCell(2).value = value;
  });
  const tableHead = ws.getRow(HEADER_ROWS + 1);
  tableHead.values = ['No.', 'Partner', 'Deliverable', 'Price', 'Commission rate'];
  tableHead.font = { bold: true };
  sheet.lines.forEach((line, i) => {
    const row = ws.getRow(HEADER_ROWS + 2 + i);
    row.values = [
      i + 1,
      line.partnerName,
      line.deliverable,
      line.price.toNumber(),
      line.commissionRate === null ? null : line.commissionRate.toNumber(),
    ];
    row.getCell(4).numFmt = MONEY_FORMAT;
    row.getCell(5).numFmt = RATE_FORMAT;
  });
  const totalsAt = HEADER_ROWS + 3 + sheet.lines.length;
  (
    [
      ['Supply amount', sheet.supplyAmount],
      ['VAT (10%)', sheet.vatAmount],
      ['Total', sheet.totalAmount],
    ] as const
  ).forEach(([label, amount], i) => {
    const row = ws.getRow(totalsAt + i);
    row.getCell(3).value = label;
    row.getCell(3).font = { bold: true };
    row.getCell(4).value = amount.toNumber();
    row.getCell(4).numFmt = MONEY_FORMAT;
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** `QUO12-<title>.xlsx`, safe in a Content-Disposition header. */
export function quotationFileName(id: string | null, title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${id ?? 'quotation'}${slug ? `-${slug}` : ''}.xlsx`;
}
