import { describe, expect, it } from 'vitest';
import { SettlementAuditEntry } from '@campaign/settlement';
import { useWorkflow } from './workflow-support.js';

/**
 * Cancelling, refused moves and the optimistic lock (DESIGN S2) of the settlement triggers,
 * against real PostgreSQL, called as the resolvers call them.
 */
const w = useWorkflow();

describe('settlement workflow (service tier): cancel and concurrent moves', () => {
  it('cancel takes the invoice and payout held only by the settlement with it', async () => {
    const id = await w.newSettlement('INDIVIDUAL');
    await w.partnerRequest.request(w.em(), w.partners.INDIVIDUAL.actor, id);
    await w.platformFlow.retryIssuance(w.em(), w.admin, id);
    await w.platformFlow.confirmAdvertiserPayment(w.em(), w.admin, id);
    await w.platformFlow.startPayout(w.em(), w.admin, id);
    expect((await w.rows(id)).payout?.status).toBe('PROCESSING');
    await w.cancellation.cancel(w.em(), w.admin, id, { reason: 'called off' });
    const after = await w.rows(id);
    expect(after.settlement.status).toBe('SETTLEMENT_CANCELLED');
    expect(after.invoice?.status).toBe('CANCELLED');
    expect(after.payout?.status).toBe('CANCELLED');
    expect(after.campaign.status).toBe('UPLOADED');
    const entry = await w.em().findOneOrFail(SettlementAuditEntry, {
      settlementId: id,
      toStatus: 'SETTLEMENT_CANCELLED',
    });
    expect(entry.details).toMatchObject({
      cancelledInvoice: after.invoice!.invoiceNumber,
      cancelledPayout: after.payout!.payoutNumber,
    });
  });

  it('a move outside the table is a 409 that writes nothing', async () => {
    const id = await w.newSettlement('INDIVIDUAL');
    const before = await w.rows(id);
    await expect(
      w.statusChange.changeStatus(w.em(), w.admin, id, { status: 'ADVERTISER_PAID' }),
    ).rejects.toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      extensions: expect.objectContaining({ currentStatus: 'SETTLEMENT_PENDING' }),
    });
    await w.rejects(w.platformFlow.complete(w.em(), w.admin, id), 'INVALID_STATUS_TRANSITION');
    await w.cancellation.cancel(w.em(), w.admin, id);
    await w.rejects(w.cancellation.cancel(w.em(), w.admin, id), 'INVALID_STATUS_TRANSITION');
    const after = await w.rows(id);
    expect(after.settlement.version).toBe(before.settlement.version + 1);
    expect(after.audit).toHaveLength(before.audit.length + 1);
  });

  it('concurrent moves of one settlement: exactly one wins, every other is CONCURRENT_MODIFICATION', async () => {
    const id = await w.newSettlement('INDIVIDUAL');
    await w.partnerRequest.request(w.em(), w.partners.INDIVIDUAL.actor, id);
    const before = await w.rows(id);
    // Hold the row so that every contender reads the same version before any can claim it.
    const holder = w.em();
    await holder.begin();
    await holder.execute('select id from settlement where id = ? for update', [id]);
    const [{ pid }] = await holder.execute<[{ pid: number }]>('select pg_backend_pid() as pid');
    const contenders = Array.from({ length: 5 }, () =>
      w.statusChange.changeStatus(w.em(), w.admin, id, { status: 'ADVERTISER_PAID' }).then(
        () => 'won',
        (error: { code?: string }) => error.code,
      ),
    );
    await w.untilBlockedBy(pid, contenders.length);
    await holder.commit();
    const outcomes = await Promise.all(contenders);
    expect(outcomes.sort()).toEqual([
      'CONCURRENT_MODIFICATION',
      'CONCURRENT_MODIFICATION',
      'CONCURRENT_MODIFICATION',
      'CONCURRENT_MODIFICATION',
      'won',
    ]);
    const after = await w.rows(id);
    expect(after.settlement).toMatchObject({
      status: 'ADVERTISER_PAID',
      version: before.settlement.version + 1,
    });
    expect(after.audit).toHaveLength(before.audit.length + 1);
    // Read after the winner committed: the normal answer for the new status.
    await w.rejects(
      w.statusChange.changeStatus(w.em(), w.admin, id, { status: 'ADVERTISER_PAID' }),
      'INVALID_STATUS_TRANSITION',
    );
  });
});
