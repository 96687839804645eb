import { describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import { base, useQuotations, type QuotationBody } from './quotation-support.js';
import * as f from './support.js';

/** Spec 4.5 (issue 12): the status moves and executing an ACCEPTED quotation. */
describe('quotations: status moves and execution', () => {
  const ctx = useQuotations();

  it('moves DRAFT → SENT → ACCEPTED; any other move is a 409 naming the allowed moves', async () => {
    const q = await ctx.create();
    const skip = await f.expectError(ctx.move(q.id, 'ACCEPTED'), 409, 'INVALID_STATUS_TRANSITION');
    expect(skip.message).toBe(
      `Cannot move quotation ${q.id} from DRAFT to ACCEPTED; allowed moves from DRAFT: SENT, CANCELLED.`,
    );
    await f.expectOk(ctx.move(q.id, 'SENT'));
    const edit = await f.expectError(
      a.adminCall('PUT', `${base}/${q.id}`, ctx.admin, ctx.body()),
      409,
      'CONFLICT',
    );
    expect(edit.message).toMatch(/only a DRAFT/);
    await f.expectError(ctx.move(q.id, 'DRAFT'), 409, 'INVALID_STATUS_TRANSITION');
    await f.expectError(ctx.move(q.id, 'PAID'), 400, 'INVALID_REQUEST');
    await f.expectError(
      a.adminCall('PATCH', `${base}/${q.id}/status`, ctx.admin, {}),
      400,
      'INVALID_REQUEST',
    );
    await f.expectError(
      a.adminCall('PATCH', `${base}/${q.id}/status`, ctx.admin, {
        status: 'ACCEPTED',
        reason: 'x',
      }),
      400,
      'INVALID_REQUEST',
    );
    expect((await f.expectOk<QuotationBody>(ctx.move(q.id, 'ACCEPTED'))).status).toBe('ACCEPTED');
    const cancelled = await f.expectOk<QuotationBody>(
      a.adminCall('DELETE', `${base}/${q.id}`, ctx.admin),
    );
    expect(cancelled.status).toBe('CANCELLED');
    const again = await f.expectError(
      a.adminCall('DELETE', `${base}/${q.id}`, ctx.admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(again.message).toMatch(/CANCELLED is terminal/);
    const viaPatch = await ctx.create();
    expect((await f.expectOk<QuotationBody>(ctx.move(viaPatch.id, 'CANCELLED'))).status).toBe(
      'CANCELLED',
    );

    const { quotation } = await graphqlOk<{
      quotation: { auditTrail: { action: string; before: unknown; after: unknown }[] };
    }>(
      `query($id: ID!) { quotation(id: $id) { auditTrail { action before after } } }`,
      { id: q.id },
      ctx.admin,
    );
    expect(quotation.auditTrail.map((e) => [e.action, e.before, e.after])).toEqual([
      ['CREATED', null, expect.objectContaining({ status: 'DRAFT', lineCount: 2 })],
      ['STATUS_CHANGED', { status: 'DRAFT' }, { status: 'SENT' }],
      ['STATUS_CHANGED', { status: 'SENT' }, { status: 'ACCEPTED' }],
      ['CANCELLED', { status: 'ACCEPTED' }, { status: 'CANCELLED' }],
    ]);
  });

  it('executes an ACCEPTED quotation once: one campaign per line, linked both ways', async () => {
    const draft = await ctx.create();
    const early = await f.expectError(
      a.adminCall('POST', `${base}/${draft.id}/execute`, ctx.admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(early.message).toMatch(/allowed moves from DRAFT: SENT, CANCELLED/);
    const q = await ctx.accepted();
    const done = await f.expectOk<QuotationBody>(
      a.adminCall('POST', `${base}/${q.id}/execute`, ctx.admin),
    );
    expect(done.status).toBe('EXECUTED');
    expect(done.campaignIds).toHaveLength(3);
    const { quotation } = await graphqlOk<{ quotation: { campaigns: Record<string, unknown>[] } }>(
      `query($id: ID!) { quotation(id: $id) { campaigns {
        id quotationId partnerId advertiserId agencyId title price commissionRate status settlementType } } }`,
      { id: q.id },
      ctx.admin,
    );
    expect(quotation.campaigns).toEqual(
      done.lines.map((line, i) => ({
        id: done.campaignIds[i],
        quotationId: q.id,
        partnerId: line['partnerId'],
        advertiserId: ctx.advertiser.id,
        agencyId: null,
        title: `Spring launch: Reel ${i + 1}`,
        price: line['price'],
        commissionRate: line['commissionRate'],
        status: 'CREATED',
        settlementType: 'PLATFORM_SETTLEMENT',
      })),
    );
    const before = await ctx.written();
    await f.expectError(
      a.adminCall('POST', `${base}/${q.id}/execute`, ctx.admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    await f.expectError(ctx.move(q.id, 'EXECUTED'), 409, 'INVALID_STATUS_TRANSITION');
    await f.expectError(
      a.adminCall('DELETE', `${base}/${q.id}`, ctx.admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    await f.expectError(
      a.adminCall('POST', `${base}/${q.id}/execute`, ctx.admin, { now: true }),
      400,
      'INVALID_REQUEST',
    );
    expect(await ctx.written()).toEqual(before);
    const [{ n }] = (await ctx.db.query(
      'select count(*)::int as n from campaign where quotation_id = $1',
      [q.id],
    )) as [{ n: number }];
    expect(n).toBe(3);
    // PATCH status EXECUTED runs the same execute.
    const other = await ctx.accepted(ctx.body(2));
    expect(
      (await f.expectOk<QuotationBody>(ctx.move(other.id, 'EXECUTED'))).campaignIds,
    ).toHaveLength(2);
    // Its campaigns are ordinary campaigns: uploading one creates its settlement.
    expect(await f.markUploaded(ctx.admin, done.campaignIds[0]!)).toMatch(/^SET\d+$/);
  });

  it('concurrent executes: one wins, the others 409, nothing created twice', async () => {
    const q = await ctx.accepted(ctx.body(4));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => a.adminCall('POST', `${base}/${q.id}/execute`, ctx.admin)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((r) => r.status === 409))
      expect(['CONCURRENT_MODIFICATION', 'INVALID_STATUS_TRANSITION']).toContain(r.body.error.code);
    const [row] = await ctx.db.query(
      `select (select count(*)::int from campaign where quotation_id = $1) as campaigns,
              (select count(*)::int from change_audit where entity_type = 'QUOTATION'
                 and entity_id = $1 and action = 'EXECUTED') as executions`,
      [q.id],
    );
    expect(row).toEqual({ campaigns: 4, executions: 1 });
  });
});
