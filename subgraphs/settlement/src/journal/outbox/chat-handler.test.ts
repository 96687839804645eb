import { describe, expect, it, vi } from 'vitest';
import type { OutboxRow } from './channel-handler.js';
import { composeChatMessage, createTeamChatHandler } from './chat-handler.js';

const row = (event: OutboxRow['event'], payload: Record<string, unknown>): OutboxRow => ({
  id: '7',
  event,
  channel: 'TEAM_CHAT',
  recipient: 'settlement-team',
  settlementId: 'SET12',
  payload: { event, campaignTitle: 'Spring <launch>', thread: 'SET12', ...payload },
  dedupeKey: `SET12:v2:${event}`,
  attempts: 0,
});

describe('team chat messages', () => {
  it('opens the settlement thread with the request, amounts formatted', () => {
    expect(
      composeChatMessage(
        row('SETTLEMENT_REQUESTED', {
          partnerName: 'Minseo',
          partnerEntityType: 'INDIVIDUAL',
          settlementType: 'PLATFORM_SETTLEMENT',
          campaignPrice: '1000005.00',
          payoutAmount: '676903.00',
        }),
      ),
    ).toEqual({
      thread: 'SET12',
      text:
        '[SETTLEMENT_REQUESTED] Minseo (INDIVIDUAL) requested settlement SET12 of campaign ' +
        '"Spring <launch>", PLATFORM_SETTLEMENT: campaign price KRW 1,000,005.00, payout ' +
        'KRW 676,903.00',
    });
  });

  it('replies with each status change: "A → B" first, who and why after', () => {
    const message = composeChatMessage(
      row('SETTLEMENT_STATUS_CHANGED', {
        fromStatus: 'AWAITING_ADVERTISER_PAYMENT',
        toStatus: 'ADVERTISER_PAID',
        trigger: 'deposit-confirmed',
        actor: 'SUPER_ADMIN:cli',
        reason: 'deposit seen',
      }),
    );
    expect(message.thread).toBe('SET12');
    expect(message.text.split('\n')).toEqual([
      '[SETTLEMENT_STATUS_CHANGED] AWAITING_ADVERTISER_PAYMENT → ADVERTISER_PAID',
      'SET12, campaign "Spring <launch>": deposit-confirmed by SUPER_ADMIN:cli; reason: deposit seen',
    ]);
  });

  it('shows an alert with what its payload names, and posts through the port', async () => {
    const post = vi.fn(async () => undefined);
    await createTeamChatHandler({ post })(
      row('TAX_INVOICE_FAILED', { kind: 'FORWARD', failureCode: 'NTS_REJECTED', thread: null }),
    );
    expect(post).toHaveBeenCalledWith({
      thread: 'SET12',
      text: '[TAX_INVOICE_FAILED] SET12, campaign "Spring <launch>" · kind: FORWARD, failureCode: NTS_REJECTED',
    });
  });

  it('a payload without what the text needs is final, not retried', () => {
    expect(() => composeChatMessage(row('SETTLEMENT_STATUS_CHANGED', {}))).toThrow(
      expect.objectContaining({ retryable: false, message: expect.stringMatching(/fromStatus/) }),
    );
  });
});
