import { describe, expect, it } from 'vitest';
import { codeById, graphql } from '../support/clients.js';
import * as a from './admin-support.js';
import * as q from './quotation-support.js';
import * as f from './support.js';

/**
 * The smaller holes of issue 23 item 6: adminNotes on every admin action, an agency active again,
 * an expired quotation neither made nor executed, another agency out of scope as a 404.
 */
describe('adminNotes on admin actions', () => {
  const ctx = f.useCast('INDIVIDUAL');

  it('REST: stored on the settlement and named in the audit entry; a partner cannot send them', async () => {
    const id = await f.newSettlement(ctx.admin, ctx.ids);
    await f.expectError(
      f.call('POST', f.partnerPath(id, '/request'), ctx.partner, { adminNotes: 'mine' }),
      400,
      'INVALID_REQUEST',
    );
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), ctx.partner));
    const paid = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, {
        status: 'ADVERTISER_PAID',
        adminNotes: 'deposit seen on the statement of 3 Dec',
      }),
    );
    expect(paid['adminNotes']).toBe('deposit seen on the statement of 3 Dec');
    const cancelled = await f.expectOk(
      f.call('POST', f.adminPath(id, '/cancel'), ctx.admin, { adminNotes: 'duplicate booking' }),
    );
    expect(cancelled['adminNotes']).toBe('duplicate booking');
    const audit = await ctx.db.query<{ notes: string | null }>(
      `select details ->> 'adminNotes' as notes from settlement_audit
       where settlement_id = $1 order by id`,
      [id],
    );
    expect(audit.map((entry) => entry.notes).filter(Boolean)).toEqual([
      'deposit seen on the statement of 3 Dec',
      'duplicate booking',
    ]);
  });

  it('GraphQL: the same through the mutation inputs, type change included', async () => {
    const id = await f.newSettlement(ctx.admin, ctx.ids);
    const result = await graphql<{ changeSettlementType: { adminNotes: string } }>(
      `
        mutation ($id: ID!) {
          changeSettlementType(
            id: $id
            input: { settlementType: DIRECT_INVOICE, adminNotes: "partner invoices" }
          ) {
            adminNotes
          }
        }
      `,
      { id },
      ctx.admin,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.changeSettlementType.adminNotes).toBe('partner invoices');
  });
});

describe('reactivateAgency', () => {
  const ctx = f.useAdmin();

  it('REST deactivate, GraphQL reactivate (SUPER_ADMIN only): new campaigns for it again', async () => {
    const agency = await a.createAgency(ctx.admin);
    await f.expectOk(a.adminCall('DELETE', `/api/admin/agencies/${agency.id}`, ctx.admin));
    const reactivate = (token: string) =>
      graphql<{ reactivateAgency: { id: number; isActive: boolean } }>(
        `
          mutation ($id: ID!) {
            reactivateAgency(id: $id) {
              id
              isActive
            }
          }
        `,
        { id: agency.id },
        token,
      );
    const denied = await reactivate(await a.agencyAdminToken(agency.id));
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('PERMISSION_DENIED');
    const back = await reactivate(ctx.admin);
    expect(back.errors).toBeUndefined();
    expect(back.data!.reactivateAgency.isActive).toBe(true);
    const read = await f.expectOk<a.AgencyBody>(
      a.adminCall('GET', `/api/admin/agencies/${agency.id}`, ctx.admin),
    );
    expect(read.isActive).toBe(true);
    const { partnerId, advertiserId } = await f.partnerAndAdvertiser(ctx.admin, 'INDIVIDUAL');
    await f.createCampaign(ctx.admin, { partnerId, advertiserId, agencyId: agency.id });
    const trail = await a.agencyTrail(ctx.admin, agency.id);
    expect(JSON.stringify(trail)).toContain('REACTIVATED');
  });
});

describe('an expired quotation', () => {
  const ctx = q.useQuotations();
  const yesterday = new Date(Date.now() - 36 * 3600_000).toISOString().slice(0, 10);

  it('REST: create and update with a past validUntil are 400; execute after it passed is 409', async () => {
    await f.expectError(
      a.adminCall('POST', q.base, ctx.admin, ctx.body(1, { validUntil: yesterday })),
      400,
      'INVALID_REQUEST',
    );
    const draft = await ctx.create();
    await f.expectError(
      a.adminCall(
        'PUT',
        `${q.base}/${draft.id}`,
        ctx.admin,
        ctx.body(1, { validUntil: yesterday }),
      ),
      400,
      'INVALID_REQUEST',
    );
    const accepted = await ctx.accepted();
    await ctx.db.query(`update quotation set valid_until = $2 where id = $1`, [
      accepted.id,
      yesterday,
    ]);
    await f.expectError(
      a.adminCall('POST', `${q.base}/${accepted.id}/execute`, ctx.admin),
      409,
      'QUOTATION_EXPIRED',
    );
    expect((await ctx.written())?.['states']).not.toMatch(/EXECUTED/);
  });

  it('GraphQL: createQuotation refuses it, executeQuotation answers QUOTATION_EXPIRED', async () => {
    const made = await graphql(
      `
        mutation ($input: QuotationInput!) {
          createQuotation(input: $input) {
            id
          }
        }
      `,
      { input: ctx.body(1, { validUntil: yesterday }) },
      ctx.admin,
    );
    expect(made.errors?.[0]?.extensions?.['code']).toBe('INVALID_REQUEST');
    const accepted = await ctx.accepted();
    await ctx.db.query(`update quotation set valid_until = $2 where id = $1`, [
      accepted.id,
      yesterday,
    ]);
    expect(await codeById('mutation', 'executeQuotation', accepted.id, ctx.admin)).toBe(
      'QUOTATION_EXPIRED',
    );
  });
});
