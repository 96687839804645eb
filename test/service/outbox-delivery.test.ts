import { describe, expect, it, vi } from 'vitest';
import { createLogger, OutboxSweeper, type Principal } from '@campaign/platform';
import { settlementOutbox } from '@campaign/settlement';
import { handlers, holdNext, lend, useOutboxFixture, worker } from './outbox-support.js';

/**
 * Outbox delivery against real PostgreSQL (issue 11, DESIGN S10): the claim, the outcomes the
 * worker writes, the next attempt's job, the lost acknowledgement, the sweep and the admin's
 * re-queue. Handlers are stand-ins; the channels themselves are whole-stack tests.
 */
const f = useOutboxFixture();
const logger = createLogger('outbox-test', 'silent');
const { services, em, superAdmin, requestedRows, outboxRow, jobsOf, makeDue } = f;

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
    await worker(h).deliver(lend(f.client()), id!);
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
    await worker(h).deliver(lend(f.client()), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
  });

  it('a failed attempt waits with its error and the next job; then DEAD after N attempts', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    h.TEAM_CHAT.mockRejectedValue(
      Object.assign(new Error('chat answered 503'), { retryable: true }),
    );
    const d = worker(h, 2);
    await d.deliver(lend(f.client()), id!);
    expect(await outboxRow(id!)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      last_error: 'Error: chat answered 503',
      waiting: true,
    });
    expect(await jobsOf(id!)).toEqual([expect.objectContaining({ later: true })]);
    // Not due yet: a job that runs early sends nothing.
    await d.deliver(lend(f.client()), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledTimes(1);
    await makeDue(id!);
    await d.deliver(lend(f.client()), id!);
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
    await worker(h, 8).deliver(lend(f.client()), id!);
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
          : f.client().query(text, values),
    };
    await expect(d.deliver(lend(failingRecord), id!)).rejects.toThrow(/terminated/);
    expect(await outboxRow(id!)).toMatchObject({ status: 'PENDING', attempts: 0 });
    await d.deliver(lend(f.client()), id!);
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('one row is sent by one worker at a time', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    const release = holdNext(h.TEAM_CHAT);
    const first = worker(h).deliver(lend(f.client()), id!);
    await vi.waitFor(() => expect(h.TEAM_CHAT).toHaveBeenCalledOnce());
    // The second worker skips the leased row instead of waiting for it or sending it.
    await worker(h).deliver(lend(f.other()), id!);
    release();
    await first;
    expect(h.TEAM_CHAT).toHaveBeenCalledOnce();
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it("a settlement's chat messages go out in order: a later one waits for the earlier", async () => {
    const [requested, changed] = await requestedRows();
    const h = handlers();
    await worker(h).deliver(lend(f.client()), changed!);
    expect(h.TEAM_CHAT).not.toHaveBeenCalled();
    expect(await outboxRow(changed!)).toMatchObject({
      status: 'PENDING',
      attempts: 0,
      waiting: true,
    });
    expect(await jobsOf(changed!)).toEqual([expect.objectContaining({ later: true })]);
    await worker(h).deliver(lend(f.client()), requested!);
    await makeDue(changed!);
    await worker(h).deliver(lend(f.client()), changed!);
    expect(h.TEAM_CHAT.mock.calls.map(([row]) => row.event)).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(await outboxRow(changed!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('no transaction or row lock is held while the outside system answers', async () => {
    const [id] = await requestedRows();
    const h = handlers();
    const [{ pid }] = await f.sql().query<{ pid: number }>('select pg_backend_pid() as pid');
    let during: { state: unknown; locked: boolean } | undefined;
    h.TEAM_CHAT.mockImplementationOnce(async () => {
      const [activity] = await f
        .otherSql()
        .query<{ state: string }>('select state from pg_stat_activity where pid = $1', [pid]);
      const free = await f
        .otherSql()
        .query('select id from outbox where id = $1 for update nowait', [id])
        .then(
          () => true,
          () => false,
        );
      during = { state: activity?.state, locked: !free };
    });
    await worker(h).deliver(lend(f.client()), id!);
    // The old delivery kept its claim open here: 'idle in transaction', the row locked.
    expect(during).toEqual({ state: 'idle', locked: false });
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('a process that dies mid-send: once its lease runs out the row is swept and sent again, same key', async () => {
    const [id] = await requestedRows();
    const dying = handlers();
    const answer = holdNext(dying.TEAM_CHAT);
    const first = worker(dying);
    const stuck = first.deliver(lend(f.client()), id!);
    await vi.waitFor(() => expect(dying.TEAM_CHAT).toHaveBeenCalledOnce());
    const h = handlers();
    const sweeper = new OutboxSweeper(
      settlementOutbox,
      (text, params) => em().execute(text, params),
      logger,
    );
    await f
      .client()
      .query(`update outbox set available_at = now() - interval '1 hour' where id = $1`, [id]);
    // Leased: the sweep and another process leave it alone.
    expect(await sweeper.sweep()).toBe(0);
    await worker(h).deliver(lend(f.other()), id!);
    expect(h.TEAM_CHAT).not.toHaveBeenCalled();
    // The lease runs out (the holder is gone): swept, then sent by another process.
    await f
      .client()
      .query(`update outbox set lease_until = now() - interval '1 second' where id = $1`, [id]);
    expect(await sweeper.sweep()).toBe(1);
    await worker(h).deliver(lend(f.other()), id!);
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
    await f
      .client()
      .query(`delete from graphile_worker._private_jobs where key = $1`, [`outbox:${id}`]);
    await f
      .client()
      .query(`update outbox set available_at = now() - interval '1 hour' where id = $1`, [id]);
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
    await worker(h).deliver(lend(f.client()), id!);
    const { settlement_id: settlementId } = (
      await f.client().query(`select settlement_id from outbox where id = $1`, [id])
    ).rows[0] as { settlement_id: string };

    const page = await services.outbox.dead(em(), superAdmin, { settlementId });
    expect(page).toMatchObject({ total: 1, nextCursor: null });
    expect(page.items[0]).toMatchObject({
      id,
      status: 'DEAD',
      attempts: 1,
      lastError: 'Error: gone',
    });
    const otherAdmin: Principal = { ...superAdmin, role: 'ADMIN', agencyId: f.otherAgencyId() };
    expect((await services.outbox.dead(em(), otherAdmin, { settlementId })).total).toBe(0);
    await expect(services.outbox.requeue(em(), otherAdmin, id!)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    await f
      .client()
      .query(`delete from graphile_worker._private_jobs where key = $1`, [`outbox:${id}`]);
    const requeued = await services.outbox.requeue(em(), superAdmin, id!);
    expect(requeued).toMatchObject({ id, status: 'PENDING', attempts: 0, deadAt: null });
    expect(await jobsOf(id!)).toEqual([expect.objectContaining({ later: false })]);
    await expect(services.outbox.requeue(em(), superAdmin, id!)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(services.outbox.requeue(em(), superAdmin, '999999999')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await worker(handlers()).deliver(lend(f.client()), id!);
    expect(await outboxRow(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });
});
