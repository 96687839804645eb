import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll } from 'vitest';
import * as a from './admin-support.js';
import * as f from './support.js';

/** Fixtures of the quotation whole-stack tests (spec 4.5 and S14, issue 12). */

export const base = '/api/admin/quotation';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MONEY = '#,##0.00';
export const RATE = '0.00"%"';

export type QuotationBody = Record<string, unknown> & {
  id: string;
  status: string;
  campaignIds: string[];
  lines: Record<string, unknown>[];
};

/** A create body as the tests build it (a test may add or break any field). */
export type QuotationInput = Record<string, unknown> & { lines: Record<string, unknown>[] };

export const seoulDate = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(at);

export interface QuotationContext {
  admin: string;
  /** An ADMIN of agency 2 (the quotations here are the default agency's). */
  agency2: string;
  db: Sql;
  /** A CORPORATE_BUSINESS and an INDIVIDUAL partner, with their names as the workbook shows them. */
  partners: { id: number; name: string }[];
  advertiser: { id: number; name: string };
  /** A valid create body of `lines` lines, alternating the two partners. */
  body(lines?: number, extra?: Record<string, unknown>): QuotationInput;
  /** What a refused call must not have added: this file's advertiser's quotations and lines. */
  written(): Promise<Record<string, unknown> | undefined>;
  create(payload?: unknown, token?: string): Promise<QuotationBody>;
  move(id: string, status: string): ReturnType<typeof a.adminCall<QuotationBody>>;
  /** A created quotation moved to ACCEPTED. */
  accepted(payload?: unknown): Promise<QuotationBody>;
}

/**
 * The prologue of a quotation test file, as hooks of the calling `describe`: tokens, a database
 * client, two partners and an advertiser of the file's own, and the helpers that use them.
 */
export function useQuotations(): QuotationContext {
  const ctx = {} as QuotationContext;
  ctx.body = (lines = 2, extra = {}) => ({
    advertiserId: ctx.advertiser.id,
    title: 'Spring launch',
    validUntil: '2099-01-31',
    lines: Array.from({ length: lines }, (_, i) => ({
      partnerId: ctx.partners[i % 2]!.id,
      deliverable: `Reel ${i + 1}`,
      price: i % 2 ? '333333.35' : '1000000.00',
      ...(i % 2 ? {} : { commissionRate: '15.00' }),
    })),
    ...extra,
  });
  ctx.written = async () =>
    (
      await ctx.db.query(
        `select count(*)::int as quotations,
           (select count(*)::int from quotation_line l join quotation q on q.id = l.quotation_id
             where q.advertiser_id = $1) as lines,
           (select count(*)::int from change_audit c join quotation q on q.id = c.entity_id
             where c.entity_type = 'QUOTATION' and q.advertiser_id = $1) as entries,
           (select string_agg(status || version, ',' order by id) from quotation
             where advertiser_id = $1) as states
         from quotation where advertiser_id = $1`,
        [ctx.advertiser.id],
      )
    )[0];
  ctx.create = (payload = ctx.body(), token = ctx.admin) =>
    f.expectOk<QuotationBody>(a.adminCall('POST', base, token, payload), 201);
  ctx.move = (id, status) =>
    a.adminCall<QuotationBody>('PATCH', `${base}/${id}/status`, ctx.admin, { status });
  ctx.accepted = async (payload = ctx.body(3)) => {
    const q = await ctx.create(payload);
    await f.expectOk(ctx.move(q.id, 'SENT'));
    await f.expectOk(ctx.move(q.id, 'ACCEPTED'));
    return q;
  };

  beforeAll(async () => {
    [ctx.admin, ctx.agency2, ctx.db] = await Promise.all([
      f.adminToken(),
      f.adminToken('2'),
      f.database(),
    ]);
    const ids = await Promise.all([
      f.createPartner(ctx.admin, 'CORPORATE_BUSINESS'),
      f.createPartner(ctx.admin, 'INDIVIDUAL'),
    ]);
    const advertiserId = await f.createAdvertiser(ctx.admin);
    const names = await ctx.db.query<{ id: number; name: string }>(
      'select id::int, name from partner where id = any($1) order by id',
      [ids],
    );
    ctx.partners = ids.map((id) => names.find((row) => row.id === id)!);
    const [row] = await ctx.db.query<{ name: string }>(
      'select name from advertiser where id = $1',
      [advertiserId],
    );
    ctx.advertiser = { id: advertiserId, name: row!.name };
  });
  afterAll(() => ctx.db?.end());
  return ctx;
}
