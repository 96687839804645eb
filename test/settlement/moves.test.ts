import { beforeAll, describe, expect, it } from 'vitest';
import { settlementStatuses, type SettlementStatus } from '@campaign/settlement';
import * as f from './support.js';

/** The code's statuses; the moves between them (below) are the spec's, not the code's table. */
const STATUSES = settlementStatuses;
type Status = SettlementStatus;

/** Spec section 3, written out here independently of the code's table. */
const ALLOWED: Record<Status, Status[]> = {
  SETTLEMENT_PENDING: ['AWAITING_ADVERTISER_PAYMENT', 'SETTLEMENT_CANCELLED'],
  AWAITING_ADVERTISER_PAYMENT: ['ADVERTISER_PAID', 'SETTLEMENT_CANCELLED'],
  ADVERTISER_PAID: ['PARTNER_PAYOUT_PROCESSING', 'SETTLEMENT_CANCELLED'],
  PARTNER_PAYOUT_PROCESSING: ['SETTLEMENT_COMPLETED', 'SETTLEMENT_CANCELLED'],
  SETTLEMENT_COMPLETED: [],
  SETTLEMENT_CANCELLED: [],
};

/** The dedicated action paths and the status each one moves to. */
const ACTIONS: { path: string; to: Status; partner?: boolean }[] = [
  { path: '/request', to: 'AWAITING_ADVERTISER_PAYMENT', partner: true },
  { path: '/start-payout', to: 'PARTNER_PAYOUT_PROCESSING' },
  { path: '/complete', to: 'SETTLEMENT_COMPLETED' },
  { path: '/cancel', to: 'SETTLEMENT_CANCELLED' },
];

describe('every disallowed move is a 409 INVALID_STATUS_TRANSITION that changes nothing', () => {
  const ctx = f.useCast('INDIVIDUAL');
  const byStatus = {} as Record<Status, string>;

  beforeAll(async () => {
    await Promise.all(
      STATUSES.map(async (status) => {
        const id = await f.newSettlement(ctx.admin, ctx.ids);
        await f.walkTo(ctx.admin, ctx.partner, id, status);
        byStatus[status] = id;
      }),
    );
  });

  async function snapshot(id: string) {
    const rows = await ctx.db.query(
      `select s.status, s.version,
         (select count(*)::int from settlement_audit a where a.settlement_id = s.id) as audits,
         (select count(*)::int from outbox o where o.settlement_id = s.id) as notices
       from settlement s where s.id = $1`,
      [id],
    );
    return rows[0];
  }

  const patchCases = STATUSES.flatMap((from) =>
    STATUSES.filter((to) => !ALLOWED[from].includes(to)).map((to) => ({ from, to })),
  );

  it.each(patchCases)('PATCH status $from → $to', async ({ from, to }) => {
    const id = byStatus[from];
    const before = await snapshot(id);
    expect(before!['status']).toBe(from);
    const error = await f.expectError(
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: to }),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(error.message).toContain(`from ${from} to ${to}`);
    expect(error.message).toContain(
      ALLOWED[from].length ? `allowed moves from ${from}: ${ALLOWED[from].join(', ')}` : 'terminal',
    );
    expect(error.retryable).toBe(false);
    expect(await snapshot(id)).toEqual(before);
  });

  const actionCases = STATUSES.flatMap((from) =>
    ACTIONS.filter((a) => !ALLOWED[from].includes(a.to)).map((a) => ({ from, ...a })),
  );

  it.each(actionCases)('POST $path from $from', async ({ from, path, partner: byPartner }) => {
    const id = byStatus[from];
    const before = await snapshot(id);
    await f.expectError(
      f.call(
        'POST',
        byPartner ? f.partnerPath(id, path) : f.adminPath(id, path),
        byPartner ? ctx.partner : ctx.admin,
      ),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(await snapshot(id)).toEqual(before);
  });

  it('terminal settlements take no issuance request either', async () => {
    for (const status of ['SETTLEMENT_COMPLETED', 'SETTLEMENT_CANCELLED'] as const) {
      await f.expectError(
        f.call('POST', f.adminPath(byStatus[status], '/retry-issuance'), ctx.admin),
        409,
        'CONFLICT',
      );
    }
  });

  it('DIRECT_INVOICE: invoice-paid only from AWAITING_ADVERTISER_PAYMENT, request only from SETTLEMENT_PENDING', async () => {
    const id = await f.newSettlement(ctx.admin, {
      ...ctx.ids,
      settlementType: 'DIRECT_INVOICE',
    });
    await f.expectError(
      f.call('POST', f.adminPath(id, '/invoice-paid'), ctx.admin),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), ctx.partner));
    await f.expectError(
      f.call('POST', f.partnerPath(id, '/request'), ctx.partner),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    await f.expectOk(f.call('POST', f.adminPath(id, '/invoice-paid'), ctx.admin));
    const error = await f.expectError(
      f.call('POST', f.partnerPath(id, '/invoice-paid'), ctx.partner),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(error.message).toContain('SETTLEMENT_COMPLETED is terminal');
  });
});

describe('cancel from every non-terminal status (S6)', () => {
  const ctx = f.useCast('CORPORATE_BUSINESS');

  it.each(STATUSES.slice(0, 4))(
    'from %s, with its invoice, payout and reverse issuance',
    async (status) => {
      const id = await f.newSettlement(ctx.admin, ctx.ids);
      if (status !== 'SETTLEMENT_PENDING') {
        await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), ctx.partner));
        await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
      }
      if (status === 'ADVERTISER_PAID' || status === 'PARTNER_PAYOUT_PROCESSING') {
        await f.expectOk(
          f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'ADVERTISER_PAID' }),
        );
      }
      if (status === 'PARTNER_PAYOUT_PROCESSING') {
        await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin));
      }
      const cancelled = await f.expectOk(
        f.call('POST', f.adminPath(id, '/cancel'), ctx.admin, { reason: 'campaign withdrawn' }),
      );
      expect(cancelled.status).toBe('SETTLEMENT_CANCELLED');
      if (status !== 'SETTLEMENT_PENDING') {
        expect(cancelled.advertiserInvoice).toMatchObject({ status: 'CANCELLED' });
        expect(cancelled.reverseIssuance).toMatchObject({ status: 'CANCELLED' });
        const events = (await f.outboxOf(ctx.db, id)).map((r) => r.event);
        const at = events.lastIndexOf('SETTLEMENT_STATUS_CHANGED');
        expect(events[at + 1]).toBe('TAX_INVOICE_REVERSE_CANCEL_REQUEST');
        // Its tax invoice: withdrawn while pending, annulled once issued (issue 23).
        expect([
          'TAX_INVOICE_FORWARD_WITHDRAW_REQUEST',
          'TAX_INVOICE_CANCELLATION_REQUEST',
        ]).toContain(events[at + 2]);
      }
      if (status === 'PARTNER_PAYOUT_PROCESSING') {
        expect(cancelled.partnerPayout).toMatchObject({ status: 'CANCELLED' });
      }
      const audit = await f.auditOf(ctx.db, id);
      expect(audit.at(-1)).toMatchObject({
        action: 'STATUS_CHANGED',
        from_status: status,
        to_status: 'SETTLEMENT_CANCELLED',
        reason: 'campaign withdrawn',
      });
    },
  );
});
