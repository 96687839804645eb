import { afterAll, beforeAll, vi } from 'vitest';
import {
  createLogger,
  OutboxDelivery,
  outboxEnv,
  retryPolicy,
  type LendClient,
} from '@campaign/platform';
import {
  deliveryHandlers,
  settlementOutbox,
  type ChannelHandlers,
  type OutboxRow,
} from '@campaign/settlement';
import { connectSql, type Sql } from '@campaign/stack';
import type { Principal } from '@campaign/platform';
import { Agency, Settlement } from '@campaign/settlement';
import { useSettlementServices } from '../support/service-database.js';

/** Fixtures of the outbox delivery tests (outbox-delivery.test.ts). */

const logger = createLogger('outbox-test', 'silent');

/** The delivery's view of a connection (a `pg` client's `query`). */
export const asClient = (db: Sql) => ({
  query: async (text: string, values?: unknown[]) => ({ rows: await db.query(text, values) }),
});

/** Lends `client` for each short transaction of a delivery (graphile's withPgClient in service). */
export const lend =
  (client: ReturnType<typeof asClient>): LendClient =>
  (work) =>
    work(client);

export const handlers = () =>
  ({
    EMAIL: vi.fn(async (_row: OutboxRow) => undefined),
    TEAM_CHAT: vi.fn(async (_row: OutboxRow) => undefined),
    TAX_INVOICE_PROVIDER: vi.fn(async (_row: OutboxRow) => undefined),
  }) satisfies ChannelHandlers;

/** One process's delivery (its own lease owner and memory) with these handlers. */
export function worker(channelHandlers: ChannelHandlers, maxAttempts = 3) {
  const policy = retryPolicy(
    outboxEnv.parse({ OUTBOX_MAX_ATTEMPTS: String(maxAttempts), OUTBOX_RETRY_BASE_MS: '60000' }),
  );
  return new OutboxDelivery({
    repository: settlementOutbox,
    handlers: deliveryHandlers(channelHandlers),
    policy,
    leaseMs: 60_000,
    logger,
  });
}

/** An agency row (no service creates the default agency). */
export const agencyFixture = (code: string, isDefault: boolean) => ({
  name: code,
  code,
  businessName: `${code} Co.`,
  businessNumber: '1208147521',
  representativeName: 'Kim',
  bankName: 'Shinhan Bank',
  accountNumber: '110-123-456789',
  accountHolder: `${code} Co.`,
  email: `${code}@platform.example`,
  isDefault,
  isActive: true,
});

/** Holds the handler's next call open; the returned function lets it answer. */
export function holdNext(handler: {
  mockImplementationOnce(impl: () => Promise<undefined>): unknown;
}): () => void {
  let answer: (() => void) | undefined;
  handler.mockImplementationOnce(
    () => new Promise<undefined>((r) => (answer = () => r(undefined))),
  );
  return () => answer!();
}

/**
 * A settlement database with an agency, a partner and an advertiser, two connections to it
 * (`client` and `other`, for a second process), and the readers of its outbox rows and jobs.
 */
export function useOutboxFixture() {
  const { orm, services, em, admin: superAdmin } = useSettlementServices();
  let sql: Sql;
  let otherSql: Sql;
  let client: ReturnType<typeof asClient>;
  let other: ReturnType<typeof asClient>;
  let partnerActor: Principal;
  let advertiserId: number;
  let partnerId: number;
  let otherAgencyId: string;

  beforeAll(async () => {
    await em().insert(Agency, agencyFixture('platform', true));
    otherAgencyId = String(await em().insert(Agency, agencyFixture('other', false)));
    const partner = await services.partners.createPartner(em(), {
      name: 'Minseo',
      entityType: 'INDIVIDUAL',
      email: 'minseo@example.com',
      bankName: 'Kakao Bank',
      accountNumber: '3333-01-1234567',
      accountHolder: 'Park Minseo',
    });
    partnerId = Number(partner.id);
    partnerActor = { subject: 'p', role: 'PARTNER', agencyId: null, partnerId: partner.id };
    const advertiser = await services.partners.createAdvertiser(em(), {
      name: 'Glow',
      email: 'ads@glow.example',
    });
    advertiserId = Number(advertiser.id);
    const url = orm().config.get('clientUrl')!;
    [sql, otherSql] = await Promise.all([connectSql(url), connectSql(url)]);
    client = asClient(sql);
    other = asClient(otherSql);
  });
  afterAll(async () => {
    await Promise.all([sql?.end(), otherSql?.end()]);
  });

  /** A requested settlement: its two team-chat rows (SETTLEMENT_REQUESTED, STATUS_CHANGED). */
  async function requestedRows(): Promise<string[]> {
    const campaign = await services.campaigns.create(
      em(),
      { partnerId, advertiserId, title: 'Spring', price: '1000000.00' },
      superAdmin,
    );
    await services.campaignUpload.markUploaded(em(), campaign.id, superAdmin);
    const { id } = await em().findOneOrFail(Settlement, { campaignId: campaign.id });
    await services.workflow.partnerRequest.request(em(), partnerActor, id);
    const rows = await sql.query<{ id: string }>(
      `select id::text as id from outbox where settlement_id = $1 order by outbox.id`,
      [id],
    );
    return rows.map((r) => r.id);
  }

  async function outboxRow(id: string) {
    const { rows } = await client.query(
      `select status, attempts, last_error, sent_at, dead_at, available_at > now() as waiting
         from outbox where id = $1`,
      [id],
    );
    return rows[0] as Record<string, unknown>;
  }

  async function jobsOf(id: string) {
    const { rows } = await client.query(
      `select t.identifier as task_identifier, j.run_at > now() as later, j.payload
         from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id
        where j.key = $1`,
      [`outbox:${id}`],
    );
    return rows as { task_identifier: string; later: boolean; payload: unknown }[];
  }

  /** Makes a waiting row due now (instead of waiting out its back-off). */
  const makeDue = (id: string) =>
    client.query(`update outbox set available_at = now() - interval '1 second' where id = $1`, [
      id,
    ]);

  return {
    services,
    em,
    superAdmin,
    sql: () => sql,
    otherSql: () => otherSql,
    client: () => client,
    other: () => other,
    otherAgencyId: () => otherAgencyId,
    requestedRows,
    outboxRow,
    jobsOf,
    makeDue,
  };
}
