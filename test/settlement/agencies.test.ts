import { describe, expect, it } from 'vitest';
import { graphql, graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import { base, useAgencies } from './agency-support.js';
import * as f from './support.js';

/** Spec 4.4 and 2.4 through REST and GraphQL (issue 12): paths, permissions, changes and audit. */
describe('agencies', () => {
  const ctx = useAgencies();

  it('creates (201), reads by id, default, code and account, and lists (REST = GraphQL)', async () => {
    const input = a.agencyInput();
    const created = await f.expectOk<a.AgencyBody>(
      a.adminCall('POST', base, ctx.superAdmin, input),
      201,
    );
    expect(created).toEqual({
      ...input,
      id: expect.any(Number),
      businessNumber: '2208162517',
      isActive: true,
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const byId = await f.expectOk(a.adminCall('GET', `${base}/${created.id}`, ctx.superAdmin));
    expect(byId).toEqual(created);
    const byCode = await f.expectOk(
      a.adminCall('GET', `${base}/code/${input.code.toUpperCase()}`, ctx.superAdmin),
    );
    expect(byCode).toEqual(created);
    const account = await f.expectOk(
      a.adminCall('GET', `${base}/${created.id}/settlement-account`, ctx.superAdmin),
    );
    expect(account).toEqual({
      agencyId: created.id,
      agencyName: input.name,
      bankName: input.bankName,
      accountNumber: input.accountNumber,
      accountHolder: input.accountHolder,
    });
    const fallback = await f.expectOk<a.AgencyBody>(
      a.adminCall('GET', `${base}/default`, ctx.superAdmin),
    );
    expect(fallback).toMatchObject({ isDefault: true, isActive: true, code: 'platform' });

    const gql = await graphqlOk<Record<string, Record<string, unknown>>>(
      `query($id: ID!, $code: String!) {
        agency(id: $id) { id code businessNumber isActive }
        byCode: agencyByCode(code: $code) { id }
        agencySettlementAccount(id: $id) { agencyId bankName accountNumber accountHolder }
        defaultAgency { id isDefault }
        agencies(limit: 100) { total items { id } }
      }`,
      { id: String(created.id), code: input.code },
      ctx.superAdmin,
    );
    expect(gql['agency']).toEqual({
      id: created.id,
      code: input.code,
      businessNumber: '2208162517',
      isActive: true,
    });
    expect(gql['byCode']).toEqual({ id: created.id });
    expect(gql['agencySettlementAccount']).toMatchObject({ agencyId: created.id });
    expect(gql['defaultAgency']).toEqual({ id: fallback.id, isDefault: true });
  });

  it('lists every agency by id, inactive included, in pages', async () => {
    const inactive = await a.createAgency(ctx.superAdmin);
    await f.expectOk(a.adminCall('DELETE', `${base}/${inactive.id}`, ctx.superAdmin));
    const all = await f.expectOk<f.Page>(a.adminCall('GET', `${base}?limit=100`, ctx.superAdmin));
    const ids = all.items.map((item) => Number(item.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids).toContain(inactive.id);
    const first = await f.expectOk<f.Page>(a.adminCall('GET', `${base}?limit=1`, ctx.superAdmin));
    expect(first.items).toHaveLength(1);
    expect(first.total).toBeGreaterThanOrEqual(3);
    const second = await f.expectOk<f.Page>(
      a.adminCall('GET', `${base}?limit=1&cursor=${first.nextCursor}`, ctx.superAdmin),
    );
    expect(Number(second.items[0]!.id)).toBeGreaterThan(Number(first.items[0]!.id));
    const onlyInactive = await f.expectOk<f.Page>(
      a.adminCall('GET', `${base}?isActive=false&limit=100`, ctx.superAdmin),
    );
    expect(onlyInactive.items.every((item) => item['isActive'] === false)).toBe(true);
    expect(onlyInactive.items.map((item) => item.id)).toContain(inactive.id);
    for (const query of ['limit=0', 'limit=101', 'isActive=maybe', 'color=red', 'cursor=nope'])
      await f.expectError(
        a.adminCall('GET', `${base}?${query}`, ctx.superAdmin),
        400,
        query.startsWith('cursor') ? 'INVALID_CURSOR' : 'INVALID_REQUEST',
      );
  });

  it('create and deactivate need SUPER_ADMIN; an agency ADMIN sees and updates its own only', async () => {
    const own = await a.createAgency(ctx.superAdmin);
    const other = await a.createAgency(ctx.superAdmin);
    const ownAdmin = await a.agencyAdminToken(own.id);
    const partner = await f.partnerToken(1);
    const code = a.uniqueCode();
    await f.expectError(
      a.adminCall('POST', base, ownAdmin, a.agencyInput(code)),
      403,
      'PERMISSION_DENIED',
    );
    await f.expectError(
      a.adminCall('DELETE', `${base}/${own.id}`, ownAdmin),
      403,
      'PERMISSION_DENIED',
    );
    await f.expectError(a.adminCall('GET', base, partner), 403, 'PERMISSION_DENIED');
    await f.expectError(a.adminCall('GET', base, undefined), 401, 'UNAUTHENTICATED');
    expect(await ctx.written([code])).toEqual({ agencies: 0, entries: 0 });

    const list = await f.expectOk<f.Page>(a.adminCall('GET', base, ownAdmin));
    expect(list).toEqual({
      items: [expect.objectContaining({ id: own.id })],
      nextCursor: null,
      total: 1,
    });
    for (const path of [
      `/${other.id}`,
      `/${other.id}/settlement-account`,
      '/1',
      '/default',
      `/code/${other.code}`,
    ])
      await f.expectError(a.adminCall('GET', `${base}${path}`, ownAdmin), 404, 'NOT_FOUND');
    const before = await ctx.written([other.code]);
    await f.expectError(
      a.adminCall('PUT', `${base}/${other.id}`, ownAdmin, { name: 'Taken over' }),
      404,
      'NOT_FOUND',
    );
    expect(await ctx.written([other.code])).toEqual(before);
    const renamed = await f.expectOk<a.AgencyBody>(
      a.adminCall('PUT', `${base}/${own.id}`, ownAdmin, { name: 'Renamed by its admin' }),
    );
    expect(renamed).toMatchObject({ id: own.id, name: 'Renamed by its admin', code: own.code });
    const denied = await graphql(
      `
        mutation {
          createAgency(
            input: {
              name: "x"
              code: "xy"
              businessName: "x"
              businessNumber: "2208162517"
              representativeName: "x"
              bankName: "x"
              accountNumber: "123456"
              accountHolder: "x"
              email: "a@b.cd"
            }
          ) {
            id
          }
        }
      `,
      {},
      ctx.agency2Admin,
    );
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('PERMISSION_DENIED');
  });

  it('PUT changes the given fields only, never isActive; every change is audited', async () => {
    const agency = await a.createAgency(ctx.superAdmin);
    const path = `${base}/${agency.id}`;
    const updated = await f.expectOk<a.AgencyBody>(
      a.adminCall('PUT', path, ctx.superAdmin, {
        bankName: 'Hana Bank',
        accountNumber: '356-910123-45607',
      }),
    );
    expect(updated).toEqual({
      ...agency,
      bankName: 'Hana Bank',
      accountNumber: '356-910123-45607',
      updatedAt: expect.any(String),
    });
    const same = await f.expectOk(a.adminCall('PUT', path, ctx.superAdmin, {}));
    expect(same).toEqual(updated);
    const before = await ctx.written([agency.code]);
    for (const body of [
      { isActive: false },
      { name: null },
      { code: 'x' },
      { email: 'nope' },
      { id: 5 },
    ])
      await f.expectError(a.adminCall('PUT', path, ctx.superAdmin, body), 400, 'INVALID_REQUEST');
    await f.expectError(
      a.adminCall('PUT', path, ctx.superAdmin, { businessNumber: '2208162518' }),
      400,
      'INVALID_BUSINESS_NUMBER',
    );
    await f.expectError(
      a.adminCall('PUT', `${base}/999999999`, ctx.superAdmin, { name: 'x' }),
      404,
      'NOT_FOUND',
    );
    expect(await ctx.written([agency.code])).toEqual(before);
    await f.expectOk(a.adminCall('DELETE', path, ctx.superAdmin));
    expect(await a.agencyTrail(ctx.superAdmin, agency.id)).toEqual([
      {
        action: 'CREATED',
        actorRole: 'SUPER_ADMIN',
        createdAt: expect.any(String),
        before: null,
        after: expect.objectContaining({ code: agency.code, isActive: true }),
      },
      {
        action: 'UPDATED',
        actorRole: 'SUPER_ADMIN',
        createdAt: expect.any(String),
        before: { bankName: 'Woori Bank', accountNumber: '1002-777-123456' },
        after: { bankName: 'Hana Bank', accountNumber: '356-910123-45607' },
      },
      {
        action: 'DEACTIVATED',
        actorRole: 'SUPER_ADMIN',
        createdAt: expect.any(String),
        before: { isActive: true },
        after: { isActive: false },
      },
    ]);
  });
});
