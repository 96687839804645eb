import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import * as f from './support.js';

const base = '/api/admin/agencies';

/** Spec 4.4 and 2.4 through REST and GraphQL (issue 12): paths, permissions, rules, audit. */
describe('agencies', () => {
  let superAdmin: string;
  let agency2Admin: string;
  let db: Sql;

  beforeAll(async () => {
    [superAdmin, agency2Admin] = await Promise.all([f.adminToken(), f.adminToken('2')]);
    db = await f.database();
  });
  afterAll(() => db?.end());

  /** The rows and audit entries of agencies with these codes: what a refused call must not add. */
  const written = async (codes: string[]) => {
    const [row] = await db.query<{ agencies: number; entries: number }>(
      `select count(*)::int as agencies,
         (select count(*)::int from change_audit c join agency g on c.entity_id = g.id::text
           and c.entity_type = 'AGENCY' where lower(g.code) = any($1)) as entries
       from agency where lower(code) = any($1)`,
      [codes.map((code) => code.toLowerCase())],
    );
    return row!;
  };

  it('creates (201), reads by id, default, code and account, and lists (REST = GraphQL)', async () => {
    const input = a.agencyInput();
    const created = await f.expectOk<a.AgencyBody>(
      a.adminCall('POST', base, superAdmin, input),
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
    const byId = await f.expectOk(a.adminCall('GET', `${base}/${created.id}`, superAdmin));
    expect(byId).toEqual(created);
    const byCode = await f.expectOk(
      a.adminCall('GET', `${base}/code/${input.code.toUpperCase()}`, superAdmin),
    );
    expect(byCode).toEqual(created);
    const account = await f.expectOk(
      a.adminCall('GET', `${base}/${created.id}/settlement-account`, superAdmin),
    );
    expect(account).toEqual({
      agencyId: created.id,
      agencyName: input.name,
      bankName: input.bankName,
      accountNumber: input.accountNumber,
      accountHolder: input.accountHolder,
    });
    const fallback = await f.expectOk<a.AgencyBody>(
      a.adminCall('GET', `${base}/default`, superAdmin),
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
      superAdmin,
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
    const inactive = await a.createAgency(superAdmin);
    await f.expectOk(a.adminCall('DELETE', `${base}/${inactive.id}`, superAdmin));
    const all = await f.expectOk<f.Page>(a.adminCall('GET', `${base}?limit=100`, superAdmin));
    const ids = all.items.map((item) => Number(item.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids).toContain(inactive.id);
    const first = await f.expectOk<f.Page>(a.adminCall('GET', `${base}?limit=1`, superAdmin));
    expect(first.items).toHaveLength(1);
    expect(first.total).toBeGreaterThanOrEqual(3);
    const second = await f.expectOk<f.Page>(
      a.adminCall('GET', `${base}?limit=1&cursor=${first.nextCursor}`, superAdmin),
    );
    expect(Number(second.items[0]!.id)).toBeGreaterThan(Number(first.items[0]!.id));
    const onlyInactive = await f.expectOk<f.Page>(
      a.adminCall('GET', `${base}?isActive=false&limit=100`, superAdmin),
    );
    expect(onlyInactive.items.every((item) => item['isActive'] === false)).toBe(true);
    expect(onlyInactive.items.map((item) => item.id)).toContain(inactive.id);
    for (const query of ['limit=0', 'limit=101', 'isActive=maybe', 'color=red', 'cursor=nope'])
      await f.expectError(
        a.adminCall('GET', `${base}?${query}`, superAdmin),
        400,
        query.startsWith('cursor') ? 'INVALID_CURSOR' : 'INVALID_REQUEST',
      );
  });

  it('create and deactivate need SUPER_ADMIN; an agency ADMIN sees and updates its own only', async () => {
    const own = await a.createAgency(superAdmin);
    const other = await a.createAgency(superAdmin);
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
    expect(await written([code])).toEqual({ agencies: 0, entries: 0 });

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
    const before = await written([other.code]);
    await f.expectError(
      a.adminCall('PUT', `${base}/${other.id}`, ownAdmin, { name: 'Taken over' }),
      404,
      'NOT_FOUND',
    );
    expect(await written([other.code])).toEqual(before);
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
      agency2Admin,
    );
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('PERMISSION_DENIED');
  });

  it('PUT changes the given fields only, never isActive; every change is audited', async () => {
    const agency = await a.createAgency(superAdmin);
    const path = `${base}/${agency.id}`;
    const updated = await f.expectOk<a.AgencyBody>(
      a.adminCall('PUT', path, superAdmin, {
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
    const same = await f.expectOk(a.adminCall('PUT', path, superAdmin, {}));
    expect(same).toEqual(updated);
    const before = await written([agency.code]);
    for (const body of [
      { isActive: false },
      { name: null },
      { code: 'x' },
      { email: 'nope' },
      { id: 5 },
    ])
      await f.expectError(a.adminCall('PUT', path, superAdmin, body), 400, 'INVALID_REQUEST');
    await f.expectError(
      a.adminCall('PUT', path, superAdmin, { businessNumber: '2208162518' }),
      400,
      'INVALID_BUSINESS_NUMBER',
    );
    await f.expectError(
      a.adminCall('PUT', `${base}/999999999`, superAdmin, { name: 'x' }),
      404,
      'NOT_FOUND',
    );
    expect(await written([agency.code])).toEqual(before);
    await f.expectOk(a.adminCall('DELETE', path, superAdmin));
    expect(await a.agencyTrail(superAdmin, agency.id)).toEqual([
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
      await f.expectError(a.adminCall('POST', base, superAdmin, body), 400, errorCode);
    }
    await f.expectError(a.adminCall('POST', base, superAdmin), 400, 'INVALID_REQUEST');
    expect(await written([one, over, stem])).toEqual({ agencies: 0, entries: 0 });
    // At the limits: 2 and 30 characters are accepted (the stack is fresh for every run, and no
    // other file makes 2-character codes).
    for (const code of [`${stem.slice(-1)}2`, at(30)]) {
      const created = await f.expectOk<a.AgencyBody>(
        a.adminCall('POST', base, superAdmin, a.agencyInput(code)),
        201,
      );
      expect(created.code).toBe(code);
    }
  });

  it('codes are unique ignoring case: 409, also for concurrent creates', async () => {
    const code = a.uniqueCode('Dup');
    await f.expectOk(a.adminCall('POST', base, superAdmin, a.agencyInput(code)), 201);
    await f.expectError(
      a.adminCall('POST', base, superAdmin, a.agencyInput(code.toLowerCase())),
      409,
      'CONFLICT',
    );
    const other = await a.createAgency(superAdmin);
    await f.expectError(
      a.adminCall('PUT', `${base}/${other.id}`, superAdmin, { code: code.toUpperCase() }),
      409,
      'CONFLICT',
    );

    const raced = a.uniqueCode('Race');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        a.adminCall(
          'POST',
          base,
          superAdmin,
          a.agencyInput(i % 2 ? raced.toLowerCase() : raced.toUpperCase()),
        ),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((r) => r.status === 409))
      expect(r.body.error.code).toBe('CONFLICT');
    expect(await written([raced])).toEqual({ agencies: 1, entries: 1 });
  });

  it('deactivation is soft: history stays, new campaigns and quotations are refused (409)', async () => {
    const agency = await a.createAgency(superAdmin);
    const { partnerId, advertiserId } = await f.partnerAndAdvertiser(superAdmin, 'INDIVIDUAL');
    const settlementId = await f.newSettlement(superAdmin, {
      partnerId,
      advertiserId,
      agencyId: agency.id,
    });
    const deactivated = await f.expectOk<a.AgencyBody>(
      a.adminCall('DELETE', `${base}/${agency.id}`, superAdmin),
    );
    expect(deactivated).toMatchObject({ id: agency.id, isActive: false });
    const again = await f.expectOk<a.AgencyBody>(
      a.adminCall('DELETE', `${base}/${agency.id}`, superAdmin),
    );
    expect(again.isActive).toBe(false);
    expect(await f.expectOk(a.adminCall('GET', `${base}/${agency.id}`, superAdmin))).toMatchObject({
      isActive: false,
    });
    const settlement = await f.expectOk(f.call('GET', f.adminPath(settlementId), superAdmin));
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
      superAdmin,
    );
    expect(campaign.errors?.[0]?.extensions?.['code']).toBe('CONFLICT');
    await f.expectError(
      a.adminCall('POST', '/api/admin/quotation', superAdmin, {
        advertiserId,
        agencyId: agency.id,
        title: 'Too late',
        validUntil: '2027-01-31',
        lines: [{ partnerId, deliverable: 'Reel', price: '100.00' }],
      }),
      409,
      'CONFLICT',
    );
    const fallback = await f.expectOk<a.AgencyBody>(
      a.adminCall('GET', `${base}/default`, superAdmin),
    );
    await f.expectError(
      a.adminCall('DELETE', `${base}/${fallback.id}`, superAdmin),
      409,
      'CONFLICT',
    );
    await f.expectError(
      a.adminCall('DELETE', `${base}/${agency.id}`, superAdmin, { reason: 'x' }),
      400,
      'INVALID_REQUEST',
    );
    await f.expectError(a.adminCall('DELETE', `${base}/999999999`, superAdmin), 404, 'NOT_FOUND');
  });

  it('the settlement account is the deposit account an advertiser invoice snapshots', async () => {
    const agency = await a.createAgency(superAdmin);
    const { partnerId, advertiserId, partner } = await f.partnerAndAdvertiser(
      superAdmin,
      'INDIVIDUAL',
    );
    const id = await f.newSettlement(superAdmin, { partnerId, advertiserId, agencyId: agency.id });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner));
    const settlement = await f.expectOk(
      f.call('POST', f.adminPath(id, '/retry-issuance'), superAdmin),
    );
    const account = await f.expectOk<Record<string, unknown>>(
      a.adminCall('GET', `${base}/${agency.id}/settlement-account`, superAdmin),
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
      superAdmin,
    );
    expect(createAgency.isActive).toBe(true);
    const id = String(createAgency.id);
    const { updateAgency } = await graphqlOk<{ updateAgency: { email: string; name: string } }>(
      `mutation($id: ID!, $input: UpdateAgencyInput!) { updateAgency(id: $id, input: $input) { email name } }`,
      { id, input: { email: 'new@agency.example' } },
      superAdmin,
    );
    expect(updateAgency).toEqual({ email: 'new@agency.example', name: input.name });
    const { deactivateAgency } = await graphqlOk<{ deactivateAgency: { isActive: boolean } }>(
      `mutation($id: ID!) { deactivateAgency(id: $id) { isActive } }`,
      { id },
      superAdmin,
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
      agency2Admin,
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
      await f.expectError(a.adminCall('GET', `${base}${path}`, superAdmin), 404, 'NOT_FOUND');
  });
});
