import { DEVELOPMENT_SECRETS, signToken } from '@campaign/platform';
import type { RunningStack } from '@campaign/stack';
import type { Fixtures } from './cells.js';
import {
  createSettlements,
  createTenants,
  DEFAULT_SET,
  HIVE_SET,
  METRICS_OFF_SET,
  TRACED_SET,
  withSql,
} from './setup.js';

/** A billed profile read through REST with `key` and an idempotency key: its operation id. */
async function profile(
  restUrl: string,
  key: string,
  idempotencyKey: string,
  accountRef: Record<string, string>,
): Promise<string> {
  const answer = await fetch(`${restUrl}/api/lens/v1/accounts/profile`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'idempotency-key': idempotencyKey,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ accountRef }),
  });
  return ((await answer.json()) as { data: { operationId: string } }).data.operationId;
}

/**
 * What the cells run against: tenants and their keys, settlements, an operation to replay, the
 * partners' accounts observed once (so that partner.account answers with data), and the URLs of
 * every hop and set of the bench stack.
 */
export async function benchFixtures(stack: RunningStack, referenceUrl: string): Promise<Fixtures> {
  const { urls } = stack;
  const [hotKey, ...manyKeys] = await createTenants(urls.lensDatabase, 51);
  await createSettlements(urls.settlementDatabase, 120);
  const adminToken = await signToken(
    { secret: DEVELOPMENT_SECRETS.jwt, issuer: 'campaign-platform' },
    { subject: 'bench', role: 'SUPER_ADMIN', agencyId: null, partnerId: null },
  );
  const replayKey = 'bench-replay';
  const operationId = await profile(urls.rest, hotKey!, replayKey, { handle: 'minji.daily' });
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
  for (const accountId of partnerAccounts) {
    await profile(urls.rest, hotKey!, `observe-${accountId}`, { accountId });
  }
  return {
    urls: {
      rest: urls.rest,
      gateway: urls.gateway,
      hiveGateway: stack.replicas![HIVE_SET]!.gateway,
      restDefault: stack.replicas![DEFAULT_SET]!.rest,
      restMetricsOff: stack.replicas![METRICS_OFF_SET]!.rest,
      restTraced: stack.replicas![TRACED_SET]!.rest,
      lens: urls.lens,
      settlement: urls.settlement,
      reference: referenceUrl,
    },
    hotKey: hotKey!,
    manyKeys,
    manyHandles: Array.from({ length: 500 }, (_, i) => `bench.account${i}`),
    replayKey,
    operationId,
    adminToken,
    settlementId,
  };
}
