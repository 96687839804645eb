import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import * as f from './support.js';

const base = '/api/admin/quotation';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MONEY = '#,##0.00';
const RATE = '0.00"%"';

type QuotationBody = Record<string, unknown> & {
  id: string;
  status: string;
  campaignIds: string[];
  lines: Record<string, unknown>[];
};

const seoulDate = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(at);

/** Spec 4.5 and S14 through REST and GraphQL (issue 12). */
describe('quotations', () => {
  let admin: string;
  let agency2: string;
  let db: Sql;
  let partners: { id: number; name: string }[];
  let advertiser: { id: number; name: string };

  const body = (lines = 2, extra: Record<string, unknown> = {}) => ({
    advertiserId: advertiser.id,
    title: 'Spring launch',
    validUntil: '2027-01-31',
    lines: Array.from({ length: lines }, (_, i) => ({
      partnerId: partners[i % 2]!.id,
      deliverable: `Reel ${i + 1}`,
      price: i % 2 ? '333333.35' : '1000000.00',
      ...(i % 2 ? {} : { commissionRate: '15.00' }),
    })),
    ...extra,
  });

  /** What a refused call must not have added: this file's advertiser's quotations and lines. */
  const written = async () =>
    (
      await db.query(
        `select count(*)::int as quotations,
           (select count(*)::int from quotation_line l join quotation q on q.id = l.quotation_id
             where q.advertiser_id = $1) as lines,
           (select count(*)::int from change_audit c join quotation q on q.id = c.entity_id
             where c.entity_type = 'QUOTATION' and q.advertiser_id = $1) as entries,
           (select string_agg(status || version, ',' order by id) from quotation
             where advertiser_id = $1) as states
         from quotation where advertiser_id = $1`,
        [advertiser.id],
      )
    )[0];

  const create = (payload: unknown = body(), token = admin) =>
    f.expectOk<QuotationBody>(a.adminCall('POST', base, token, payload), 201);
  const move = (id: string, status: string) =>
    a.adminCall<QuotationBody>('PATCH', `${base}/${id}/status`, admin, { status });
  const accepted = async (payload: unknown = body(3)) => {
    const q = await create(payload);
    await f.expectOk(move(q.id, 'SENT'));
    await f.expectOk(move(q.id, 'ACCEPTED'));
    return q;
  };

  beforeAll(async () => {
    [admin, agency2] = await Promise.all([f.adminToken(), f.adminToken('2')]);
    db = await f.database();
    const ids = await Promise.all([
      f.createPartner(admin, 'CORPORATE_BUSINESS'),
      f.createPartner(admin, 'INDIVIDUAL'),
    ]);
    const advertiserId = await f.createAdvertiser(admin);
    const names = await db.query<{ id: number; name: string }>(
      'select id::int, name from partner where id = any($1) order by id',
      [ids],
    );
    partners = ids.map((id) => names.find((row) => row.id === id)!);
    const [row] = await db.query<{ name: string }>('select name from advertiser where id = $1', [
      advertiserId,
    ]);
    advertiser = { id: advertiserId, name: row!.name };
  });
  afterAll(() => db?.end());

  it('creates a DRAFT (201) with its amounts; reads and updates it (REST = GraphQL)', async () => {
    const created = await create();
    expect(created).toEqual({
      id: expect.stringMatching(/^QUO[1-9]\d*$/),
      status: 'DRAFT',
      advertiserId: advertiser.id,
      agencyId: null,
      title: 'Spring launch',
      validUntil: '2027-01-31',
      lines: [
        {
          partnerId: partners[0]!.id,
          deliverable: 'Reel 1',
          price: '1000000.00',
          commissionRate: '15.00',
        },
        {
          partnerId: partners[1]!.id,
          deliverable: 'Reel 2',
          price: '333333.35',
          commissionRate: null,
        },
      ],
      supplyAmount: '1333333.35',
      vatAmount: '133333.00',
      totalAmount: '1466666.35',
      campaignIds: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await f.expectOk(a.adminCall('GET', `${base}/${created.id}`, admin))).toEqual(created);
    const { quotation } = await graphqlOk<{ quotation: QuotationBody }>(
      `query($id: ID!) { quotation(id: $id) { id status advertiserId agencyId title validUntil
        lines { partnerId deliverable price commissionRate } supplyAmount vatAmount totalAmount
        campaignIds createdAt updatedAt } }`,
      { id: created.id },
      admin,
    );
    expect(quotation).toEqual(created);

    const updated = await f.expectOk<QuotationBody>(
      a.adminCall(
        'PUT',
        `${base}/${created.id}`,
        admin,
        body(1, { title: 'Spring launch v2', agencyId: 2 }),
      ),
    );
    expect(updated).toMatchObject({
      id: created.id,
      status: 'DRAFT',
      title: 'Spring launch v2',
      agencyId: 2,
      supplyAmount: '1000000.00',
      vatAmount: '100000.00',
      totalAmount: '1100000.00',
    });
    expect(updated.lines).toHaveLength(1);
    const viaGraphql = await graphqlOk<{ updateQuotation: { title: string } }>(
      `mutation($id: ID!, $input: QuotationInput!) { updateQuotation(id: $id, input: $input) { title } }`,
      { id: created.id, input: body(2, { title: 'Spring launch v3' }) },
      admin,
    );
    expect(viaGraphql.updateQuotation.title).toBe('Spring launch v3');
  });

  it('the GraphQL mutations of the paths: create, status, execute, cancel', async () => {
    const run = <T>(query: string, variables: Record<string, unknown>) =>
      graphqlOk<T>(query, variables, admin);
    const { createQuotation: q } = await run<{ createQuotation: { id: string; status: string } }>(
      `mutation($input: QuotationInput!) { createQuotation(input: $input) { id status } }`,
      { input: body(2) },
    );
    expect(q.status).toBe('DRAFT');
    for (const status of ['SENT', 'ACCEPTED']) {
      const { changeQuotationStatus } = await run<{ changeQuotationStatus: { status: string } }>(
        `mutation($id: ID!, $input: ChangeQuotationStatusInput!) {
          changeQuotationStatus(id: $id, input: $input) { status } }`,
        { id: q.id, input: { status } },
      );
      expect(changeQuotationStatus.status).toBe(status);
    }
    const { executeQuotation } = await run<{
      executeQuotation: {
        status: string;
        campaignIds: string[];
        campaigns: { quotationId: string }[];
      };
    }>(
      `mutation($id: ID!) { executeQuotation(id: $id) { status campaignIds campaigns { quotationId } } }`,
      { id: q.id },
    );
    expect(executeQuotation).toMatchObject({
      status: 'EXECUTED',
      campaigns: [{ quotationId: q.id }, { quotationId: q.id }],
    });
    expect(executeQuotation.campaignIds).toHaveLength(2);
    const cancel = await graphql(
      `
        mutation ($id: ID!) {
          cancelQuotation(id: $id) {
            id
          }
        }
      `,
      { id: q.id },
      admin,
    );
    expect(cancel.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      currentStatus: 'EXECUTED',
      allowedMoves: [],
    });
    const { cancelQuotation } = await run<{ cancelQuotation: { status: string } }>(
      `mutation($id: ID!) { cancelQuotation(id: $id) { status } }`,
      { id: (await create()).id },
    );
    expect(cancelQuotation.status).toBe('CANCELLED');
  });

  it('lists newest first with filters and pages', async () => {
    const [first, second] = [await create(), await create(body(1, { agencyId: 2 }))];
    await f.expectOk(move(second.id, 'SENT'));
    const mine = `advertiserId=${advertiser.id}`;
    const all = await f.page(`${base}?${mine}&limit=100`, admin);
    const ids = all.items.map((q) => Number(String(q.id).slice(3)));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(all.total).toBe(all.items.length);
    const sent = await f.page(`${base}?${mine}&status=SENT`, admin);
    expect(sent.items.map((q) => q.id)).toContain(second.id);
    expect(sent.items.every((q) => q.status === 'SENT')).toBe(true);
    const ofAgency2 = await f.page(`${base}?${mine}&agencyId=2`, admin);
    expect(ofAgency2.items.every((q) => q['agencyId'] === 2)).toBe(true);
    const today = seoulDate(new Date());
    const dated = await f.page(`${base}?${mine}&from=${today}&to=${today}&limit=100`, admin);
    expect(dated.items.map((q) => q.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    const page1 = await f.page(`${base}?${mine}&limit=1`, admin);
    const page2 = await f.page(`${base}?${mine}&limit=1&cursor=${page1.nextCursor}`, admin);
    expect(page2.items[0]!.id).toBe(all.items[1]!.id);
    const { quotations } = await graphqlOk<{ quotations: { total: number } }>(
      `query($f: QuotationFilter) { quotations(filter: $f, limit: 100) { total } }`,
      { f: { advertiserId: String(advertiser.id) } },
      admin,
    );
    expect(quotations.total).toBe(all.total);
    for (const query of [
      'status=PAID',
      'limit=0',
      'limit=101',
      'from=2026-02-30',
      'agencyId=x',
      'color=red',
    ])
      await f.expectError(a.adminCall('GET', `${base}?${query}`, admin), 400, 'INVALID_REQUEST');
    // A cursor of another list (here the settlements') is not one of this list.
    const foreign = Buffer.from('s1:5').toString('base64url');
    await f.expectError(
      a.adminCall('GET', `${base}?cursor=${foreign}`, admin),
      400,
      'INVALID_CURSOR',
    );
  });

  it('moves DRAFT → SENT → ACCEPTED; any other move is a 409 naming the allowed moves', async () => {
    const q = await create();
    const skip = await f.expectError(move(q.id, 'ACCEPTED'), 409, 'INVALID_STATUS_TRANSITION');
    expect(skip.message).toBe(
      `Cannot move quotation ${q.id} from DRAFT to ACCEPTED; allowed moves from DRAFT: SENT, CANCELLED.`,
    );
    await f.expectOk(move(q.id, 'SENT'));
    const edit = await f.expectError(
      a.adminCall('PUT', `${base}/${q.id}`, admin, body()),
      409,
      'CONFLICT',
    );
    expect(edit.message).toMatch(/only a DRAFT/);
    await f.expectError(move(q.id, 'DRAFT'), 409, 'INVALID_STATUS_TRANSITION');
    await f.expectError(move(q.id, 'PAID'), 400, 'INVALID_REQUEST');
    await f.expectError(
      a.adminCall('PATCH', `${base}/${q.id}/status`, admin, {}),
      400,
      'INVALID_REQUEST',
    );
    await f.expectError(
      a.adminCall('PATCH', `${base}/${q.id}/status`, admin, { status: 'ACCEPTED', reason: 'x' }),
      400,
      'INVALID_REQUEST',
    );
    expect((await f.expectOk<QuotationBody>(move(q.id, 'ACCEPTED'))).status).toBe('ACCEPTED');
    const cancelled = await f.expectOk<QuotationBody>(
      a.adminCall('DELETE', `${base}/${q.id}`, admin),
    );
    expect(cancelled.status).toBe('CANCELLED');
    const again = await f.expectError(
      a.adminCall('DELETE', `${base}/${q.id}`, admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(again.message).toMatch(/CANCELLED is terminal/);
    const viaPatch = await create();
    expect((await f.expectOk<QuotationBody>(move(viaPatch.id, 'CANCELLED'))).status).toBe(
      'CANCELLED',
    );

    const { quotation } = await graphqlOk<{
      quotation: { auditTrail: { action: string; before: unknown; after: unknown }[] };
    }>(
      `query($id: ID!) { quotation(id: $id) { auditTrail { action before after } } }`,
      { id: q.id },
      admin,
    );
    expect(quotation.auditTrail.map((e) => [e.action, e.before, e.after])).toEqual([
      ['CREATED', null, expect.objectContaining({ status: 'DRAFT', lineCount: 2 })],
      ['STATUS_CHANGED', { status: 'DRAFT' }, { status: 'SENT' }],
      ['STATUS_CHANGED', { status: 'SENT' }, { status: 'ACCEPTED' }],
      ['CANCELLED', { status: 'ACCEPTED' }, { status: 'CANCELLED' }],
    ]);
  });

  it('executes an ACCEPTED quotation once: one campaign per line, linked both ways', async () => {
    const draft = await create();
    const early = await f.expectError(
      a.adminCall('POST', `${base}/${draft.id}/execute`, admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(early.message).toMatch(/allowed moves from DRAFT: SENT, CANCELLED/);
    const q = await accepted();
    const done = await f.expectOk<QuotationBody>(
      a.adminCall('POST', `${base}/${q.id}/execute`, admin),
    );
    expect(done.status).toBe('EXECUTED');
    expect(done.campaignIds).toHaveLength(3);
    const { quotation } = await graphqlOk<{ quotation: { campaigns: Record<string, unknown>[] } }>(
      `query($id: ID!) { quotation(id: $id) { campaigns {
        id quotationId partnerId advertiserId agencyId title price commissionRate status settlementType } } }`,
      { id: q.id },
      admin,
    );
    expect(quotation.campaigns).toEqual(
      done.lines.map((line, i) => ({
        id: done.campaignIds[i],
        quotationId: q.id,
        partnerId: line['partnerId'],
        advertiserId: advertiser.id,
        agencyId: null,
        title: `Spring launch: Reel ${i + 1}`,
        price: line['price'],
        commissionRate: line['commissionRate'],
        status: 'CREATED',
        settlementType: 'PLATFORM_SETTLEMENT',
      })),
    );
    const before = await written();
    await f.expectError(
      a.adminCall('POST', `${base}/${q.id}/execute`, admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    await f.expectError(move(q.id, 'EXECUTED'), 409, 'INVALID_STATUS_TRANSITION');
    await f.expectError(
      a.adminCall('DELETE', `${base}/${q.id}`, admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    await f.expectError(
      a.adminCall('POST', `${base}/${q.id}/execute`, admin, { now: true }),
      400,
      'INVALID_REQUEST',
    );
    expect(await written()).toEqual(before);
    const [{ n }] = (await db.query(
      'select count(*)::int as n from campaign where quotation_id = $1',
      [q.id],
    )) as [{ n: number }];
    expect(n).toBe(3);
    // PATCH status EXECUTED runs the same execute.
    const other = await accepted(body(2));
    expect((await f.expectOk<QuotationBody>(move(other.id, 'EXECUTED'))).campaignIds).toHaveLength(
      2,
    );
    // Its campaigns are ordinary campaigns: uploading one creates its settlement.
    expect(await f.markUploaded(admin, done.campaignIds[0]!)).toMatch(/^SET\d+$/);
  });

  it('concurrent executes: one wins, the others 409, nothing created twice', async () => {
    const q = await accepted(body(4));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => a.adminCall('POST', `${base}/${q.id}/execute`, admin)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((r) => r.status === 409))
      expect(['CONCURRENT_MODIFICATION', 'INVALID_STATUS_TRANSITION']).toContain(r.body.error.code);
    const [row] = await db.query(
      `select (select count(*)::int from campaign where quotation_id = $1) as campaigns,
              (select count(*)::int from change_audit where entity_type = 'QUOTATION'
                 and entity_id = $1 and action = 'EXECUTED') as executions`,
      [q.id],
    );
    expect(row).toEqual({ campaigns: 4, executions: 1 });
  });

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
      B4: advertiser.name,
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
    { partnerName: partners[0]!.name, deliverable: 'Reel 1', price: 1000000, rate: 15 },
    { partnerName: partners[1]!.name, deliverable: 'Reel 2', price: 333333.35, rate: null },
  ];

  it('downloads a real XLSX workbook, read back cell for cell', async () => {
    const q = await create(body(2, { agencyId: 2 }));
    const file = await a.fetchFile('GET', `${base}/${q.id}/download`, admin);
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
          validUntil: '2027-01-31',
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
      admin,
    );
    expect(quotationWorkbook).toMatchObject({
      fileName: `${q.id}-Spring-launch.xlsx`,
      contentType: XLSX,
    });
    expect(a.cellsOf(await a.readWorkbook(quotationWorkbook.base64))).toEqual(a.cellsOf(sheet));
    const missing = await a.fetchFile('GET', `${base}/QUO999999999/download`, admin);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.bytes.toString())).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('generates the workbook of a body at once and saves nothing; 1,000 lines too', async () => {
    const before = await written();
    const dayBefore = seoulDate(new Date());
    const file = await a.fetchFile('POST', `${base}/generate`, admin, body());
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
          validUntil: '2027-01-31',
          date: String(cells['B7']),
        },
        twoLines(),
        'Campaign Platform',
        [1333333.35, 133333, 1466666.35],
      ),
    );
    const big = await a.fetchFile('POST', `${base}/generate`, admin, body(1000));
    expect(big.status).toBe(200);
    const bigSheet = await a.readWorkbook(big.bytes);
    expect(bigSheet.getCell('A1008').value).toBe(1000);
    expect(bigSheet.getCell('D1010').value).toBe(666666675);
    expect(bigSheet.getCell('D1011').value).toBe(66666668); // 66,666,667.5 rounds half up
    expect(bigSheet.getCell('D1012').value).toBe(733333343);
    const bad = await a.fetchFile('POST', `${base}/generate`, admin, body(0));
    expect(bad.status).toBe(400);
    const { generateQuotationWorkbook } = await graphqlOk<{
      generateQuotationWorkbook: { base64: string };
    }>(
      `query($input: QuotationInput!) { generateQuotationWorkbook(input: $input) { base64 } }`,
      { input: body() },
      admin,
    );
    expect((await a.readWorkbook(generateQuotationWorkbook.base64)).getCell('D14').value).toBe(
      1466666.35,
    );
    expect(await written()).toEqual(before);
  });

  it('bad input is a 400 with the catalogue code; lines at 0, 1, 1,000 and 1,001; nothing written', async () => {
    const line = body(1).lines[0]!;
    const refused: [string, unknown][] = [
      ['no lines', body(0)],
      ['1,001 lines', body(1001)],
      ['a price as a JSON number', { ...body(1), lines: [{ ...line, price: 100 }] }],
      ['a rate as a JSON number', { ...body(1), lines: [{ ...line, commissionRate: 10 }] }],
      ['a price with 3 decimals', { ...body(1), lines: [{ ...line, price: '1.005' }] }],
      ['a negative price', { ...body(1), lines: [{ ...line, price: '-1.00' }] }],
      ['a rate over 100', { ...body(1), lines: [{ ...line, commissionRate: '100.01' }] }],
      ['an empty deliverable', { ...body(1), lines: [{ ...line, deliverable: ' ' }] }],
      [
        'a total past numeric(15,2)',
        { ...body(1), lines: [{ ...line, price: '9999999999999.99' }] },
      ],
      ['an unknown partner', { ...body(1), lines: [{ ...line, partnerId: 999999999 }] }],
      ['an unknown advertiser', body(1, { advertiserId: 999999999 })],
      ['an unknown agency', body(1, { agencyId: 999999999 })],
      ['no title', { ...body(1), title: undefined }],
      ['a blank title', body(1, { title: '  ' })],
      ['a date that does not exist', body(1, { validUntil: '2027-02-30' })],
      ['a date in another format', body(1, { validUntil: '31/01/2027' })],
      ['an unknown field', body(1, { status: 'SENT' })],
      ['an unknown line field', { ...body(1), lines: [{ ...line, quantity: 2 }] }],
      ['not JSON', 'not json'],
      ['no body', undefined],
    ];
    const before = await written();
    for (const [what, payload] of refused) {
      const response = await a.adminCall('POST', base, admin, payload);
      expect(response.status, what).toBe(400);
      expect(response.body.error.code, what).toBe('INVALID_REQUEST');
    }
    expect(await written()).toEqual(before);
    const q = await create(body(1));
    const saved = await written();
    await f.expectError(
      a.adminCall('PUT', `${base}/${q.id}`, admin, body(1001)),
      400,
      'INVALID_REQUEST',
    );
    await f.expectError(
      a.adminCall('PUT', `${base}/${q.id}`, admin, { ...body(1), lines: [{ ...line, price: 5 }] }),
      400,
      'INVALID_REQUEST',
    );
    expect(await written()).toEqual(saved);
    const thousand = await create(body(1000));
    expect(thousand.lines).toHaveLength(1000);
    expect(thousand.supplyAmount).toBe('666666675.00');
  });

  it('scope: an agency ADMIN works on its agency’s quotations only (404); partners 403', async () => {
    const foreign = await create();
    const own = await create(body(1), agency2);
    expect(own.agencyId).toBe(2);
    await f.expectError(
      a.adminCall('POST', base, agency2, body(1, { agencyId: 1 })),
      404,
      'NOT_FOUND',
    );
    const before = await written();
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['PUT', '', body(1)],
      ['DELETE', '', undefined],
      ['PATCH', '/status', { status: 'SENT' }],
      ['POST', '/execute', undefined],
      ['GET', '/download', undefined],
    ] as const)
      await f.expectError(
        a.adminCall(method, `${base}/${foreign.id}${path}`, agency2, payload),
        404,
        'NOT_FOUND',
      );
    await f.expectError(
      a.adminCall('PUT', `${base}/${own.id}`, agency2, body(1, { agencyId: 1 })),
      404,
      'NOT_FOUND',
    );
    expect(await written()).toEqual(before);
    const listed = await f.page(`${base}?advertiserId=${advertiser.id}&limit=100`, agency2);
    expect(listed.items.length).toBeGreaterThan(0);
    expect(listed.items.every((q) => q['agencyId'] === 2)).toBe(true);
    for (const id of ['QUO999999999', 'abc'])
      await f.expectError(a.adminCall('GET', `${base}/${id}`, admin), 404, 'NOT_FOUND');
    const partner = await f.partnerToken(partners[0]!.id);
    await f.expectError(a.adminCall('GET', base, partner), 403, 'PERMISSION_DENIED');
    await f.expectError(a.adminCall('POST', base, partner, body()), 403, 'PERMISSION_DENIED');
    await f.expectError(a.adminCall('GET', base, undefined), 401, 'UNAUTHENTICATED');
    const anonymous = await graphql(`
      {
        quotations {
          total
        }
      }
    `);
    expect(anonymous.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });
});
