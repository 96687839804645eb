import ExcelJS from 'exceljs';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { calculateQuotationAmounts } from './quotation-amounts.js';
import { quotationFileName, quotationWorkbook, type QuotationSheet } from './quotation-workbook.js';

async function readBack(buffer: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  return book.getWorksheet('Quotation')!;
}

const lines = [
  {
    partnerName: 'Hanriver Media',
    deliverable: '1 reel',
    price: new Decimal('1000000.00'),
    commissionRate: new Decimal('20.00'),
  },
  {
    partnerName: 'Minji Daily',
    deliverable: '3 stories',
    price: new Decimal('333333.35'),
    commissionRate: null,
  },
];

function sheet(overrides: Partial<QuotationSheet> = {}): QuotationSheet {
  const amounts = calculateQuotationAmounts(lines);
  return {
    id: 'QUO7',
    title: 'Spring launch',
    status: 'DRAFT',
    advertiserName: 'Acme Foods',
    agencyName: 'Seoul Agency',
    createdAt: new Date('2026-11-01T00:00:00Z'),
    validUntil: '2099-12-31',
    lines,
    ...amounts,
    ...overrides,
  };
}

describe('quotation amounts', () => {
  it('sums the lines, VAT 10 % half up to whole units, total', () => {
    const amounts = calculateQuotationAmounts(lines);
    expect(amounts.supplyAmount.toFixed(2)).toBe('1333333.35');
    expect(amounts.vatAmount.toFixed(2)).toBe('133333.00'); // 133333.335 → 133333
    expect(amounts.totalAmount.toFixed(2)).toBe('1466666.35');
  });

  it('a half unit of VAT rounds up', () => {
    expect(calculateQuotationAmounts([{ price: '15.00' }]).vatAmount.toFixed(2)).toBe('2.00');
  });

  it('a price that is not money is refused, naming the line', () => {
    expect(() => calculateQuotationAmounts([{ price: '1.005' }])).toThrow(/lines\[0\]\.price/);
  });
});

describe('quotation workbook', () => {
  it('reads back cell for cell: header block, lines, totals as numbers with formats', async () => {
    const ws = await readBack(await quotationWorkbook(sheet()));
    expect(ws.getCell('A1').value).toBe('Quotation');
    expect(ws.getCell('B1').value).toBe('QUO7');
    expect(ws.getCell('B2').value).toBe('Spring launch');
    expect(ws.getCell('B4').value).toBe('Acme Foods');
    expect(ws.getCell('B5').value).toBe('Seoul Agency');
    expect(ws.getCell('B6').value).toBe('2099-12-31');
    expect(ws.getCell('A7').value).toBe('Date');
    expect(ws.getCell('B7').value).toBe('2026-11-01'); // 09:00 in Seoul
    expect(ws.getRow(8).values).toEqual([
      undefined,
      'No.',
      'Partner',
      'Deliverable',
      'Price',
      'Commission rate',
    ]);
    expect(ws.getRow(9).values).toEqual([undefined, 1, 'Hanriver Media', '1 reel', 1000000, 20]);
    expect(ws.getRow(10).values).toEqual([undefined, 2, 'Minji Daily', '3 stories', 333333.35]);
    expect(ws.getCell('D9').numFmt).toBe('#,##0.00');
    expect(ws.getCell('C12').value).toBe('Supply amount');
    expect(ws.getCell('D12').value).toBe(1333333.35);
    expect(ws.getCell('D13').value).toBe(133333);
    expect(ws.getCell('C14').value).toBe('Total');
    expect(ws.getCell('D14').value).toBe(1466666.35);
    expect(typeof ws.getCell('D14').value).toBe('number');
    expect(ws.getCell('D14').numFmt).toBe('#,##0.00');
    expect(ws.getColumn(3).width).toBe(40);
  });

  it('the largest amount survives as a number', async () => {
    const big = new Decimal('9999999999999.99');
    const ws = await readBack(
      await quotationWorkbook(sheet({ supplyAmount: big, totalAmount: big, lines: [] })),
    );
    expect(ws.getCell('D10').value).toBe(9999999999999.99);
  });

  it('a generated (unsaved) workbook says so', async () => {
    const ws = await readBack(await quotationWorkbook(sheet({ id: null, createdAt: null })));
    expect(ws.getCell('B1').value).toBe('(not saved)');
    expect(ws.getCell('B7').value).toBe('(not saved)');
  });

  it('file names are safe for Content-Disposition', () => {
    expect(quotationFileName('QUO7', 'Spring launch / 봄 "2026"')).toBe(
      'QUO7-Spring-launch-2026.xlsx',
    );
    expect(quotationFileName(null, '')).toBe('quotation.xlsx');
  });
});
