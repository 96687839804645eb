import { describe, expect, it } from 'vitest';
import { graphql, graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import { base, useAgencies } from './agency-support.js';
import * as f from './support.js';

/** Spec 4.4 and 2.4 (issue 12): validation, unique codes, soft deactivation, the account, 404s. */
describe('agency rules', () => {
  const ctx = useAgencies();

  it('validates every field: code at and past its limits, number, e-mail, bank; nothing written', async () => {
    const stem = a.uniqueCode('V');
    const at = (length: number) => (stem + 'x'.repeat(30)).slice(0, length);
    const one = stem.slice(0, 1);
    const over = (stem + 'y'.repeat(31)).slice(0, 31);
    const refused: [Record<string, unknown>, string][] = [
      [{ code: one }, 'INVALID_REQUEST'],
      [{ code: over }, 'INVALID_REQUEST'],
      [{ code: `${stem} x` }, 'INVALID_REQUEST'],
      [{ code: `${stem}!` }, 'INVALID_REQUEST'],
      [{ businessNumber: '123-45-67890' }, 'INVALID_BUSINESS_NUMBER'],
      [{ businessNumber: '12345' }, 'INVALID_BUSINESS_NUMBER'],
      [{ email: 'billing-at-example' }, 'INVALID_REQUEST'],
      [{ accountNumber: 'ABC-123' }, 'INVALID_REQUEST'],
      [{ accountNumber: '12--3456' }, 'INVALID_REQUEST'],
      [{ accountNumber: '123' }, 'INVALID_REQUEST'],
      [{ bankName: '   ' }, 'INVALID_REQUEST'],
      [{ name: 'x'.repeat(201) }, 'INVALID_REQUEST'],
      [{ isActive: false }, 'INVALID_REQUEST'],
      [{ accountHolder: undefined }, 'INVALID_REQUEST'],
      [{ representativeName: 42 }, 'INVALID_REQUEST'],
    ];
    for (const [change, errorCode] of refused) {
      const body = { ...a.agencyInput(stem), ...change };
      await f.expectError(a.adminCall('POST', base, ctx.superAdmin, body), 400, errorCode);
    }
    await f.expectError(a.adminCall('POST', base, ctx.superAdmin), 400, 'INVALID_REQUEST');
    expect(await ctx.written([one, over, stem])).toEqual({ agencies: 0, entries: 0 });
    // At the limits: 2 and 30 characters are accepted (the stack is fresh for every run, and no
    // other file makes 2-character codes).
    for (const code of [`${stem.slice(-1)}2`, at(30)]) {
      const created = await f.expectOk<a.AgencyBody>(
        a.adminCall('POST', base, ctx.superAdmin, a.agencyInput(code)),
        201,
      );
      expect(created.code).toBe(code);
    }
  });

  it('codes are unique ignoring case: 409, also for concurrent creates', async () => {
    const code = a.uniqueCode('Dup');
    await f.expectOk(a.adminCall('POST', base, ctx.superAdmin, a.agencyInput(code)), 201);
    await f.expectError(
      a.adminCall('POST', base, ctx.superAdmin, a.agencyInput(code.toLowerCase())),
      409,
      'CONFLICT',
    );
    const other = await a.createAgency(ctx.superAdmin);
    await f.expectError(
      a.adminCall('PUT', `${base}/${other.id}`, ctx.superAdmin, { code: code.toUpperCase() }),
      409,
      'CONFLICT',
    );

    const raced = a.uniqueCode('Race');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        a.adminCall(
          'POST',
          base,
          ctx.superAdmin,
          a.agencyInput(i % 2 ? raced.toLowerCase() : raced.toUpperCase()),
        ),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((r) => r.status === 409))
      expect(r.body.error.code).toBe('CONFLICT');
    expect(await ctx.written([raced])).toEqual({ agencies: 1, entries: 1 });
  });

  it('deactivation is soft: history stays, new campaigns and quotations are refused (409)', async () => {
    const agency = await a.createAgency(ctx.superAdmin);
    const { partnerId, advertiserId } = await f.partnerAndAdvertiser(ctx.superAdmin, 'INDIVIDUAL');
    const settlementId = await f.newSettlement(ctx.superAdmin, {
      partnerId,
      advertiserId,
      agencyId: agency.id,
    });
    const deactivated = await f.expectOk<a.AgencyBody>(
      a.adminCall('DELETE', `${base}/${agency.id}`, ctx.superAdmin),
    );
    expect(deactivated).toMatchObject({ id: agency.id, isActive: false });
    const again = await f.expectOk<a.AgencyBody>(
      a.adminCall('DELETE', `${base}/${agency.id}`, ctx.superAdmin),
    );
    expect(again.isActive).toBe(false);
    expect(
      await f.expectOk(a.adminCall('GET', `${base}/${agency.id}`, ctx.superAdmin)),
    ).toMatchObject({
      isActive: false,
    });
    const settlement = await f.expectOk(f.call('GET', f.adminPath(settlementId), ctx.superAdmin));
    expect(settlement.agencyId).toBe(agency.id);

    const campaign = await graphql(
      `
        mutation ($input: CreateCampaignInput!) {
          createCampaign(input: $input) {
            id
          }
        }
      `,
      {
        input: { partnerId, advertiserId, agencyId: agency.id, title: 'Too late', price: '100.00' },
      },
      ctx.superAdmin,
    );
    expect(campaign.errors?.[0]?.extensions?.['code']).toBe('CONFLICT');
    await f.expectError(
      a.adminCall('POST', '/api/admin/quotation', ctx.superAdmin, {
        advertiserId,
        agencyId: agency.id,
        title: 'Too late',
        validUntil: '2099-01-31',
        lines: [{ partnerId, deliverable: 'Reel', price: '100.00' }],
      }),
      409,
      'CONFLICT',
    );
    const fallback = await f.expectOk<a.AgencyBody>(
      a.adminCall('GET', `${base}/default`, ctx.superAdmin),
    );
    await f.expectError(
      a.adminCall('DELETE', `${base}/${fallback.id}`, ctx.superAdmin),
      409,
      'CONFLICT',
    );
    await f.expectError(
      a.adminCall('DELETE', `${base}/${agency.id}`, ctx.superAdmin, { reason: 'x' }),
      400,
      'INVALID_REQUEST',
    );
    await f.expectError(
      a.adminCall('DELETE', `${base}/999999999`, ctx.superAdmin),
      404,
      'NOT_FOUND',
    );
  });

  it('the settlement account is the deposit account an advertiser invoice snapshots', async () => {
    const agency = await a.createAgency(ctx.superAdmin);
    const { partnerId, advertiserId, partner } = await f.partnerAndAdvertiser(
      ctx.superAdmin,
      'INDIVIDUAL',
    );
    const id = await f.newSettlement(ctx.superAdmin, {
      partnerId,
      advertiserId,
      agencyId: agency.id,
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner));
    const settlement = await f.expectOk(
      f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.superAdmin),
    );
    const account = await f.expectOk<Record<string, unknown>>(
      a.adminCall('GET', `${base}/${agency.id}/settlement-account`, ctx.superAdmin),
    );
    expect(settlement.advertiserInvoice).toMatchObject({
      agencyId: agency.id,
      bankName: account['bankName'],
      accountNumber: account['accountNumber'],
      accountHolder: account['accountHolder'],
    });
  });

  it('the GraphQL mutations of the paths: create, update, deactivate', async () => {
    const input = a.agencyInput();
    const { createAgency } = await graphqlOk<{ createAgency: { id: number; isActive: boolean } }>(
      `mutation($input: CreateAgencyInput!) { createAgency(input: $input) { id isActive } }`,
      { input },
      ctx.superAdmin,
    );
    expect(createAgency.isActive).toBe(true);
    const id = String(createAgency.id);
    const { updateAgency } = await graphqlOk<{ updateAgency: { email: string; name: string } }>(
      `mutation($id: ID!, $input: UpdateAgencyInput!) { updateAgency(id: $id, input: $input) { email name } }`,
      { id, input: { email: 'new@agency.example' } },
      ctx.superAdmin,
    );
    expect(updateAgency).toEqual({ email: 'new@agency.example', name: input.name });
    const { deactivateAgency } = await graphqlOk<{ deactivateAgency: { isActive: boolean } }>(
      `mutation($id: ID!) { deactivateAgency(id: $id) { isActive } }`,
      { id },
      ctx.superAdmin,
    );
    expect(deactivateAgency.isActive).toBe(false);
    const byAdmin = await graphql(
      `
        mutation ($id: ID!) {
          deactivateAgency(id: $id) {
            isActive
          }
        }
      `,
      { id },
      ctx.agency2Admin,
    );
    expect(byAdmin.errors?.[0]?.extensions?.['code']).toBe('PERMISSION_DENIED');
  });

  it('unknown ids and codes are 404', async () => {
    for (const path of [
      '/999999999',
      '/abc',
      '/999999999/settlement-account',
      '/code/no-such-code-here',
    ])
      await f.expectError(a.adminCall('GET', `${base}${path}`, ctx.superAdmin), 404, 'NOT_FOUND');
  });
});
