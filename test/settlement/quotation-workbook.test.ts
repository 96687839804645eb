import { describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import { base, MONEY, RATE, seoulDate, useQuotations, XLSX } from './quotation-support.js';

/** Spec 4.5 (issue 12): the quotation workbook, downloaded and generated. */
describe('quotations: the XLSX workbook', () => {
  const ctx = useQuotations();

  /** Every cell the workbook of `q` must hold (quotation-workbook.ts), row by row. */
  const expectedCells = (
    q: { id: string | null; title: string; status: string; validUntil: string; date: string },
    lines: { partnerName: string; deliverable: string; price: number; rate: number | null }[],
    agencyName: string,
    totals: [number, number, number],
  ) => {
    const cells: Record<string, unknown> = {
      A1: 'Quotation',
      B1: q.id ?? '(not saved)',
      A2: 'Title',
      B2: q.title,
      A3: 'Status',
      B3: q.status,
      A4: 'Advertiser',
      B4: ctx.advertiser.name,
      A5: 'Agency',
      B5: agencyName,
      A6: 'Valid until',
      B6: q.validUntil,
      A7: 'Date',
      B7: q.date,
      A8: 'No.',
      B8: 'Partner',
      C8: 'Deliverable',
      D8: 'Price',
      E8: 'Commission rate',
    };
    lines.forEach((line, i) => {
      const r = 9 + i;
      Object.assign(cells, {
        [`A${r}`]: i + 1,
        [`B${r}`]: line.partnerName,
        [`C${r}`]: line.deliverable,
        [`D${r}`]: { value: line.price, numFmt: MONEY },
        ...(line.rate === null ? {} : { [`E${r}`]: { value: line.rate, numFmt: RATE } }),
      });
    });
    const t = 10 + lines.length;
    Object.assign(cells, {
      [`C${t}`]: 'Supply amount',
      [`D${t}`]: { value: totals[0], numFmt: MONEY },
      [`C${t + 1}`]: 'VAT (10%)',
      [`D${t + 1}`]: { value: totals[1], numFmt: MONEY },
      [`C${t + 2}`]: 'Total',
      [`D${t + 2}`]: { value: totals[2], numFmt: MONEY },
    });
    return cells;
  };

  const twoLines = () => [
    { partnerName: ctx.partners[0]!.name, deliverable: 'Reel 1', price: 1000000, rate: 15 },
    { partnerName: ctx.partners[1]!.name, deliverable: 'Reel 2', price: 333333.35, rate: null },
  ];

  it('downloads a real XLSX workbook, read back cell for cell', async () => {
    const q = await ctx.create(ctx.body(2, { agencyId: 2 }));
    const file = await a.fetchFile('GET', `${base}/${q.id}/download`, ctx.admin);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(XLSX);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${q.id}-Spring-launch.xlsx"`,
    );
    const sheet = await a.readWorkbook(file.bytes);
    expect(a.cellsOf(sheet)).toEqual(
      expectedCells(
        {
          ...q,
          id: q.id,
          title: 'Spring launch',
          validUntil: '2099-01-31',
          date: seoulDate(new Date(String(q['createdAt']))),
        },
        twoLines(),
        'Seoul Creators Agency',
        [1333333.35, 133333, 1466666.35],
      ),
    );
    expect([1, 2, 3, 4, 5].map((c) => sheet.getColumn(c).width)).toEqual([6, 32, 40, 18, 16]);
    const { quotationWorkbook } = await graphqlOk<{
      quotationWorkbook: { fileName: string; contentType: string; base64: string };
    }>(
      `query($id: ID!) { quotationWorkbook(id: $id) { fileName contentType base64 } }`,
      { id: q.id },
      ctx.admin,
    );
    expect(quotationWorkbook).toMatchObject({
      fileName: `${q.id}-Spring-launch.xlsx`,
      contentType: XLSX,
    });
    expect(a.cellsOf(await a.readWorkbook(quotationWorkbook.base64))).toEqual(a.cellsOf(sheet));
    const missing = await a.fetchFile('GET', `${base}/QUO999999999/download`, ctx.admin);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.bytes.toString())).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('generates the workbook of a body at once and saves nothing; 1,000 lines too', async () => {
    const before = await ctx.written();
    const dayBefore = seoulDate(new Date());
    const file = await a.fetchFile('POST', `${base}/generate`, ctx.admin, ctx.body());
    const dayAfter = seoulDate(new Date());
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(XLSX);
    expect(file.headers.get('content-disposition')).toBe(
      'attachment; filename="quotation-Spring-launch.xlsx"',
    );
    const cells = a.cellsOf(await a.readWorkbook(file.bytes));
    expect([dayBefore, dayAfter]).toContain(cells['B7']);
    expect(cells).toEqual(
      expectedCells(
        {
          id: null,
          title: 'Spring launch',
          status: 'DRAFT',
          validUntil: '2099-01-31',
          date: String(cells['B7']),
        },
        twoLines(),
        'Campaign Platform',
        [1333333.35, 133333, 1466666.35],
      ),
    );
    const big = await a.fetchFile('POST', `${base}/generate`, ctx.admin, ctx.body(1000));
    expect(big.status).toBe(200);
    const bigSheet = await a.readWorkbook(big.bytes);
    expect(bigSheet.getCell('A1008').value).toBe(1000);
    expect(bigSheet.getCell('D1010').value).toBe(666666675);
    expect(bigSheet.getCell('D1011').value).toBe(66666668); // 66,666,667.5 rounds half up
    expect(bigSheet.getCell('D1012').value).toBe(733333343);
    const bad = await a.fetchFile('POST', `${base}/generate`, ctx.admin, ctx.body(0));
    expect(bad.status).toBe(400);
    const { generateQuotationWorkbook } = await graphqlOk<{
      generateQuotationWorkbook: { base64: string };
    }>(
      `query($input: QuotationInput!) { generateQuotationWorkbook(input: $input) { base64 } }`,
      { input: ctx.body() },
      ctx.admin,
    );
    expect((await a.readWorkbook(generateQuotationWorkbook.base64)).getCell('D14').value).toBe(
      1466666.35,
    );
    expect(await ctx.written()).toEqual(before);
  });
});
