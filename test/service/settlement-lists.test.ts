import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@campaign/platform';
import { Agency } from '@campaign/settlement';
import { Settlement } from '@campaign/settlement';
import { useSettlementServices } from '../support/service-database.js';
import { agencyFixture } from './outbox-support.js';

/** The settlement lists against real PostgreSQL: order, paging, scope and the summary. */
const { services, em, admin: superAdmin } = useSettlementServices();
let partnerId: string;
let otherPartnerId: string;
let agencyAdmin: Principal;
let ids: string[] = [];

async function upload(partner: string, agencyId: number | null = null): Promise<string> {
  const advertiser = await services.partners.createAdvertiser(em(), {
    name: 'Advertiser',
    email: 'ads@example.com',
  });
  const campaign = await services.campaigns.create(
    em(),
    {
      partnerId: Number(partner),
      advertiserId: Number(advertiser.id),
      agencyId,
      title: 'Campaign',
      price: '1000000.00',
    },
    superAdmin,
  );
  await services.campaignUpload.markUploaded(em(), campaign.id, superAdmin);
  return (await em().findOneOrFail(Settlement, { campaignId: campaign.id })).id;
}

beforeAll(async () => {
  await em().insert(Agency, agencyFixture('platform', true));
  const second = await em().insert(Agency, agencyFixture('second', false));
  agencyAdmin = { subject: 'a', role: 'ADMIN', agencyId: String(second), partnerId: null };
  const partner = (name: string) =>
    services.partners.createPartner(em(), {
      name,
      entityType: 'INDIVIDUAL',
      email: `${name}@example.com`,
    });
  partnerId = (await partner('one')).id;
  otherPartnerId = (await partner('two')).id;
  // Eleven settlements: SET10 and SET11 must come before SET9 (numbers, not text).
  for (let i = 0; i < 11; i++) ids.push(await upload(partnerId));
  ids = ids.reverse();
  await upload(otherPartnerId, Number(second));
});

describe('settlement lists (service tier)', () => {
  it('pages newest first by the number of SET<n>, the cursor continuing where it stopped', async () => {
    const list = (cursor?: string | null) =>
      services.queries.list(em(), superAdmin, { partnerId }, cursor, 4);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(cursor);
      expect(page.total).toBe(11);
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(seen.slice(0, 3)).toEqual(['SET11', 'SET10', 'SET9']);
  });

  it('an agency admin sees its agency only; the default agency also matches null', async () => {
    const own = await services.queries.list(em(), agencyAdmin, null, null, null);
    expect(own.items.map((s) => s.partnerId)).toEqual([otherPartnerId]);
    const defaultAgency = (await em().findOneOrFail(Agency, { isDefault: true })).id;
    const byAgency = await services.queries.list(
      em(),
      superAdmin,
      { agencyId: defaultAgency },
      null,
      100,
    );
    expect(byAgency.total).toBe(11);
  });

  it('the summary counts and sums the partner’s own settlements by status', async () => {
    const partner: Principal = { subject: 'p', role: 'PARTNER', agencyId: null, partnerId };
    const summary = await services.queries.summary(em(), partner);
    expect(summary.totalCount).toBe(11);
    expect(summary.byStatus[0]).toMatchObject({ status: 'SETTLEMENT_PENDING', count: 11 });
    expect(summary.campaignPrice.toFixed(2)).toBe('11000000.00');
    expect(summary.byStatus.map((s) => s.status)).toHaveLength(6);
  });

  it('answers stored rows: the entity’s every property, dates as the ORM reads them, money as text', async () => {
    const entity = await em().fork().findOneOrFail(Settlement, { id: ids[0]! });
    const [fromList] = (await services.queries.list(em(), superAdmin, { partnerId }, null, 1))
      .items;
    const byId = await services.queries.get(em(), superAdmin, ids[0]!);
    const meta = em().getMetadata().get(Settlement.name).properties;
    const properties = Object.keys(meta);
    const money = (key: string) =>
      meta[key as keyof typeof meta].columnTypes[0]!.startsWith('numeric');
    for (const row of [fromList!, byId]) {
      expect(Object.keys(row).sort()).toEqual([...properties].sort());
      for (const key of properties) {
        const want: unknown = entity[key as keyof Settlement];
        const got: unknown = row[key as keyof typeof row];
        if (money(key)) expect(got, key).toBe((want as { toFixed(n: number): string }).toFixed(2));
        else if (want instanceof Date) expect((got as Date).getTime(), key).toBe(want.getTime());
        else expect(got, key).toEqual(want);
      }
    }
  });

  it('a page after the last row is empty and still counts every match', async () => {
    // The cursor this API would issue after the last (oldest) row: `s1:<its number>`.
    const oldest = ids.at(-1)!.slice('SET'.length);
    const cursor = Buffer.from(`s1:${oldest}`, 'utf8').toString('base64url');
    const page = await services.queries.list(em(), superAdmin, { partnerId }, cursor, 10);
    expect(page).toEqual({ items: [], nextCursor: null, total: 11 });
  });
});
