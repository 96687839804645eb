import { signToken } from '@campaign/platform';
import type { RunningStack } from '@campaign/stack';
import type { Fixtures } from './cells.js';
import type { BenchMode } from './mode.js';
import {
  createSettlements,
  createTenants,
  DEFAULT_SET,
  HIVE_RUST_SET,
  HIVE_SET,
  METRICS_OFF_SET,
  TRACED_SET,
  withSql,
} from './setup.js';

/**
 * The data every cell reads: 51 tenants with keys, 120 settlements, one operation to replay and
 * poll, the partners' accounts observed once (so partner.account answers with data), and the
 * URLs of every set.
 */
export async function prepareFixtures(
  stack: RunningStack,
  reference: string,
  mode: BenchMode,
): Promise<Fixtures> {
  const urls = stack.urls;
  const [hotKey, ...manyKeys] = await createTenants(urls.lensDatabase, 51);
  await createSettlements(urls.settlementDatabase, 120);
  const adminToken = await signToken(
    { secret: mode.jwtSecret, issuer: 'campaign-platform' },
    { subject: 'bench', role: 'SUPER_ADMIN', agencyId: null, partnerId: null },
  );
  const observe = (key: string, idempotencyKey: string, accountRef: object) =>
    fetch(`${urls.rest}/api/lens/v1/accounts/profile`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'idempotency-key': idempotencyKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ accountRef }),
    });
  const replayKey = 'bench-replay';
  const first = await observe(hotKey!, replayKey, { handle: 'minji.daily' });
  const operationId = ((await first.json()) as { data: { operationId: string } }).data.operationId;
  const { settlementId, partnerAccounts } = await withSql(urls.settlementDatabase, async (c) => ({
    settlementId: (
      await c.query<{ id: string }>(
        'select id from settlement order by advertiser_invoice_id nulls last, id_number limit 1',
      )
    ).rows[0]!.id,
    partnerAccounts: (
      await c.query<{ account_id: string }>(
        'select account_id from partner where account_id is not null',
      )
    ).rows.map((r) => r.account_id),
  }));
  for (const accountId of partnerAccounts)
    await observe(hotKey!, `observe-${accountId}`, { accountId });
  const replicas = stack.replicas!;
  return {
    urls: {
      rest: urls.rest,
      gateway: urls.gateway,
      engines: {
        hive: { gateway: replicas[HIVE_SET]!.gateway, rest: replicas[HIVE_SET]!.rest },
        hiveRust: {
          gateway: replicas[HIVE_RUST_SET]!.gateway,
          rest: replicas[HIVE_RUST_SET]!.rest,
        },
      },
      restDefault: replicas[DEFAULT_SET]!.rest,
      restMetricsOff: replicas[METRICS_OFF_SET]!.rest,
      restTraced: replicas[TRACED_SET]!.rest,
      lens: urls.lens,
      settlement: urls.settlement,
      reference,
    },
    hotKey: hotKey!,
    manyKeys,
    manyHandles: Array.from({ length: 500 }, (_, i) => `bench.account${i}`),
    replayKey,
    operationId,
    adminToken,
    subgraphSecret: mode.subgraphSecret,
    settlementId,
  };
}
