import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, OutboxSweeper, type Principal } from '@campaign/platform';
import { connectSql, type Sql } from '@campaign/stack';
import { Agency, Settlement, settlementOutbox } from '@campaign/settlement';
import { useSettlementServices } from '../support/service-database.js';
import { agencyFixture, asClient, handlers, lend, worker } from './outbox-support.js';

/**
 * Outbox delivery against real PostgreSQL (issue 11, DESIGN S10): the claim, the outcomes the
 * worker writes, the next attempt's job, the lost acknowledgement, the sweep and the admin's
 * re-queue. Handlers are stand-ins; the channels themselves are whole-stack tests.
 */
const { orm, services, em, admin: superAdmin } = useSettlementServices();
const logger = createLogger('outbox-test', 'silent');
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
  client.query(`update outbox set available_at = now() - interval '1 second' where id = $1`, [id]);

describe('outbox delivery', () => {
  it('every row is written with its job, keyed by the row', async () => {
    const [requested, changed] = await requestedRows();
    for (const id of [requested!, changed!]) {
      expect(await jobsOf(id)).toEqual([
        { task_identifier: 'settlement_deliver_outbox', later: false, payload: { id } },
      ]);
    }
  });

  it('a delivered row is SENT, the handler of its channel having had the whole row', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    await worker(h).deliver(lend(client), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
    expect(h.TEAM_CHAT.mock.calls[0]![0]).toMatchObject({
      id,
      event: 'SETTLEMENT_REQUESTED',
      channel: 'TEAM_CHAT',
      recipient: 'settlement-team',
      settlementId: expect.stringMatching(/^SET\d+$/),
      dedupeKey: expect.stringMatching(/:v\d+:SETTLEMENT_REQUESTED$/),
      attempts: 0,
      payload: expect.objectContaining({ partnerName: 'Minseo', campaignTitle: 'Spring' }),
    });
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1, dead_at: null });
    // A second job for it (a stray duplicate) finds nothing to do.
    await worker(h).deliver(lend(client), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
  });

  it('a failed attempt waits with its error and the next job; then DEAD after N attempts', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    h.TEAM_CHAT.mockRejectedValue(
      Object.assign(new Error('chat answered 503'), { retryable: true }),
    );
    const d = worker(h, 2);
    await d.deliver(lend(client), id!);
    expect(await outboxRow(id!)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      last_error: 'Error: chat answered 503',
      waiting: true,
    });
    expect(await jobsOf(id!)).toEqual([expect.objectContaining({ later: true })]);
    // Not due yet: a job that runs early sends nothing.
    await d.deliver(lend(client), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledTimes(1);
    await makeDue(id!);
    await d.deliver(lend(client), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledTimes(2);
    expect(await outboxRow(id!)).toMatchObject({
      status: 'DEAD',
      attempts: 2,
      last_error: 'Error: chat answered 503',
      dead_at: expect.any(Date),
    });
  });

  it('a final refusal ends the row DEAD at once', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    h.TEAM_CHAT.mockRejectedValue(Object.assign(new Error('no_text'), { retryable: false }));
    await worker(h, 8).deliver(lend(client), id!);
    expect(await outboxRow(id!)).toMatchObject({ status: 'DEAD', attempts: 1 });
  });

  it('a delivery whose SENT could not be written is recorded, not sent again', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    const d = worker(h);
    const failingRecord = {
      query: (text: string, values?: unknown[]) =>
        text.includes(`status = 'SENT'`)
          ? Promise.reject(new Error('Connection terminated unexpectedly'))
          : client.query(text, values),
    };
    await expect(d.deliver(lend(failingRecord), id!)).rejects.toThrow(/terminated/);
    expect(await outboxRow(id!)).toMatchObject({ status: 'PENDING', attempts: 0 });
    await d.deliver(lend(client), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('one row is sent by one worker at a time', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    let release!: () => void;
    h.TEAM_CHAT.mockImplementationOnce(
      () => new Promise<undefined>((r) => (release = () => r(undefined))),
    );
    const first = worker(h).deliver(lend(client), id!);
    await vi.waitFor(() => expect(h.TEAM_CHAT).toHaveBeenCalledOnce());
    // The second worker skips the leased row instead of waiting for it or sending it.
    await worker(h).deliver(lend(other), id!);
    release();
    await first;
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it("a settlement's chat messages go out in order: a later one waits for the earlier", async () => {
    const [requested, changed] = await requestedRows();
    const h = handlers();
    await worker(h).deliver(lend(client), changed!);
    expect(h.TEAM_CHAT).not.toHaveBeenCalled();
    expect(await outboxRow(changed!)).toMatchObject({
      status: 'PENDING',
      attempts: 0,
      waiting: true,
    });
    expect(await jobsOf(changed!)).toEqual([expect.objectContaining({ later: true })]);
    await worker(h).deliver(lend(client), requested!);
    await makeDue(changed!);
    await worker(h).deliver(lend(client), changed!);
    expect(h.TEAM_CHAT.mock.calls.map(([row]) => row.event)).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(await outboxRow(changed!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('no transaction or row lock is held while the outside system answers', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    const [{ pid }] = await sql.query<{ pid: number }>('select pg_backend_pid() as pid');
    let during: { state: unknown; locked: boolean } | undefined;
    h.TEAM_CHAT.mockImplementationOnce(async () => {
      const [activity] = await otherSql.query<{ state: string }>(
        'select state from pg_stat_activity where pid = $1',
        [pid],
      );
      const free = await otherSql
        .query('select id from outbox where id = $1 for update nowait', [id])
        .then(
          () => true,
          () => false,
        );
      during = { state: activity?.state, locked: !free };
    });
    await worker(h).deliver(lend(client), id!);
    // The old delivery kept its claim open here: 'idle in transaction', the row locked.
    expect(during).toEqual({ state: 'idle', locked: false });
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('a process that dies mid-send: once its lease runs out the row is swept and sent again, same key', async () => {
    const [id] = await requestedRows();
    const dying = handlers();
    let answer!: () => void;
    dying.TEAM_CHAT.mockImplementationOnce(
      () => new Promise<undefined>((r) => (answer = () => r(undefined))),
    );
    const first = worker(dying);
    const stuck = first.deliver(lend(client), id!);
    await vi.waitFor(() => expect(dying.TEAM_CHAT).toHaveBeenCalledOnce());
    const h = handlers();
    const sweeper = new OutboxSweeper(
      settlementOutbox,
      (text, params) => em().execute(text, params),
      logger,
    );
    await client.query(`update outbox set available_at = now() - interval '1 hour' where id = $1`, [
      id,
    ]);
    // Leased: the sweep and another process leave it alone.
    expect(await sweeper.sweep()).toBe(0);
    await worker(h).deliver(lend(other), id!);
    expect(h.TEAM_CHAT).not.toHaveBeenCalled();
    // The lease runs out (the holder is gone): swept, then sent by another process.
    await client.query(
      `update outbox set lease_until = now() - interval '1 second' where id = $1`,
      [id],
    );
    expect(await sweeper.sweep()).toBe(1);
    await worker(h).deliver(lend(other), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
    expect(h.TEAM_CHAT.mock.calls[0]![0].dedupeKey).toBe(
      dying.TEAM_CHAT.mock.calls[0]![0].dedupeKey,
    );
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
    // The first sender answering late changes nothing: the row is no longer its own.
    answer();
    await stuck;
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('the sweep gives a new job to a due row whose job was lost', async () => {
    const [id] = await requestedRows();
    await client.query(`delete from graphile_worker._private_jobs where key = $1`, [
      `outbox:${id}`,
    ]);
    await client.query(`update outbox set available_at = now() - interval '1 hour' where id = $1`, [
      id,
    ]);
    expect(await jobsOf(id!)).toEqual([]);
    await new OutboxSweeper(
      settlementOutbox,
      (text, params) => em().execute(text, params),
      logger,
    ).sweep();
    expect(await jobsOf(id!)).toEqual([expect.objectContaining({ payload: { id } })]);
  });

  it('admins list DEAD messages in their scope and re-queue them with a new job', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    h.TEAM_CHAT.mockRejectedValue(Object.assign(new Error('gone'), { retryable: false }));
    await worker(h).deliver(lend(client), id!);
    const { settlement_id: settlementId } = (
      await client.query(`select settlement_id from outbox where id = $1`, [id])
    ).rows[0] as { settlement_id: string };

    const page = await services.outbox.dead(em(), superAdmin, { settlementId });
    expect(page).toMatchObject({ total: 1, nextCursor: null });
    expect(page.items[0]).toMatchObject({
      id,
      status: 'DEAD',
      attempts: 1,
      lastError: 'Error: gone',
    });
    const otherAdmin: Principal = { ...superAdmin, role: 'ADMIN', agencyId: otherAgencyId };
    expect((await services.outbox.dead(em(), otherAdmin, { settlementId })).total).toBe(0);
    await expect(services.outbox.requeue(em(), otherAdmin, id!)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    await client.query(`delete from graphile_worker._private_jobs where key = $1`, [
      `outbox:${id}`,
    ]);
    const requeued = await services.outbox.requeue(em(), superAdmin, id!);
    expect(requeued).toMatchObject({ id, status: 'PENDING', attempts: 0, deadAt: null });
    expect(await jobsOf(id!)).toEqual([expect.objectContaining({ later: false })]);
    await expect(services.outbox.requeue(em(), superAdmin, id!)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(services.outbox.requeue(em(), superAdmin, '999999999')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await worker(handlers()).deliver(lend(client), id!);
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });
});
