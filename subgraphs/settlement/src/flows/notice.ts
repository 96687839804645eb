import type { Principal } from '../kernel/principal.js';
import type { Advertiser } from '../domain/advertiser/advertiser.entity.js';
import type { Campaign } from '../domain/campaign/campaign.entity.js';
import type { Partner } from '../domain/partner/partner.entity.js';
import type { Settlement } from '../domain/settlement/settlement.entity.js';
import type { SettlementStatus } from '../kernel/settlement-types.js';
import { OutboxEvent, TEAM_CHAT_RECIPIENT, type OutboxMessage } from '../journal/outbox/outbox.js';

/**
 * The shape every settlement notice shares: what it reads of a settlement step (the settlement,
 * what it relates to and who acts), its subject and the team-chat message of its thread.
 */
export interface NoticeSource {
  readonly id: string;
  readonly actor: Principal;
  readonly settlement: Settlement;
  readonly campaign: Campaign;
  readonly partner: Partner;
  readonly advertiser: Advertiser;
}

/** A notification before it gets its dedupe key. */
export type Notice = Omit<OutboxMessage, 'dedupeKey' | 'settlementId'>;

/** The settlement a notice is about: every payload opens with it. */
export const subject = (s: NoticeSource) => ({
  settlementId: s.id,
  campaignId: s.campaign.id,
  campaignTitle: s.campaign.title,
  settlementType: s.settlement.settlementType,
});

/** A team-chat message in the settlement's thread: its payload opens with the subject. */
export const toTeamChat = (
  s: NoticeSource,
  event: OutboxEvent,
  payload: Record<string, unknown>,
): Notice => ({
  event,
  recipient: TEAM_CHAT_RECIPIENT,
  payload: { ...subject(s), thread: s.id, ...payload },
});

/** SETTLEMENT_STATUS_CHANGED in the settlement's thread (S10: every status move). */
export function statusChanged(
  s: NoticeSource,
  from: SettlementStatus,
  to: SettlementStatus,
  reason: string | null,
  trigger: string,
): Notice {
  return toTeamChat(s, OutboxEvent.SETTLEMENT_STATUS_CHANGED, {
    partnerName: s.partner.name,
    fromStatus: from,
    toStatus: to,
    trigger,
    reason,
    actor: `${s.actor.role}:${s.actor.subject}`,
  });
}
