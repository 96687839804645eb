import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { Principal } from '../../kernel/principal.js';
import { scopeOf } from '../../kernel/scope.js';
import {
  decodePosition,
  encodePosition,
  pageOf,
  parseLimit,
  type Page,
} from '../../kernel/paging.js';
import type { OutboxChannel } from './outbox.js';
import { OutboxAdminRepository, type OutboxScope } from './outbox-admin.repository.js';

export type OutboxStatus = 'PENDING' | 'SENT' | 'DEAD';

/** One outbox row as admins see it (no payload: it is what the message says, not its state). */
export interface OutboxMessageView {
  id: string;
  event: string;
  channel: OutboxChannel;
  recipient: string;
  settlementId: string | null;
  dedupeKey: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  availableAt: Date;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  deadAt: Date | null;
}

const CURSOR_TAG = 'o1';

/**
 * Admin access to the delivery state of the outbox: the DEAD messages (delivery gave up after
 * OUTBOX_MAX_ATTEMPTS, or the outside system refused them for good) and their re-queueing.
 */
export class OutboxAdminService {
  private readonly repository = new OutboxAdminRepository();

  /** `defaultAgencyId`: the agency a settlement without one belongs to (the agency table's). */
  constructor(private readonly defaultAgencyId: (em: EntityManager) => Promise<string>) {}

  private async scope(em: EntityManager, principal: Principal): Promise<OutboxScope> {
    const { agencyId } = scopeOf(principal);
    if (agencyId === null) return { agencyId: null };
    return { agencyId, defaultAgencyId: await this.defaultAgencyId(em) };
  }

  /** DEAD messages, newest first, paged like every list of the subgraph. */
  async dead(
    em: EntityManager,
    principal: Principal,
    args: { settlementId?: string | null; cursor?: string | null; limit?: number | null },
  ): Promise<Page<OutboxMessageView>> {
    const pageSize = parseLimit(args.limit);
    const after = decodePosition(CURSOR_TAG, args.cursor);
    const { rows, total } = await this.repository.dead(em, await this.scope(em, principal), {
      settlementId: args.settlementId ?? null,
      after,
      limit: pageSize + 1,
    });
    return pageOf(rows.map(toView), pageSize, total, (last) => encodePosition(CURSOR_TAG, last.id));
  }

  /**
   * Gives a DEAD message a new round of attempts: PENDING, attempts from 0, due now, with its job
   * in the same transaction (its last error stays until it is delivered or fails again). 404
   * when unknown or out of scope, 409 when it is not DEAD.
   */
  async requeue(em: EntityManager, principal: Principal, id: string): Promise<OutboxMessageView> {
    const notFound = () => new PlatformError('NOT_FOUND', `Outbox message ${id} was not found.`);
    if (!/^[1-9]\d{0,17}$/.test(id)) throw notFound();
    return em.fork({ clear: true }).transactional(async (tx) => {
      const status = await this.repository.lockedStatus(tx, await this.scope(tx, principal), id);
      if (status === null) throw notFound();
      if (status !== 'DEAD') {
        throw new PlatformError(
          'CONFLICT',
          `Outbox message ${id} is ${status}; only a DEAD message can be re-queued.`,
          { currentStatus: status },
        );
      }
      return toView(await this.repository.requeueDead(tx, id));
    });
  }
}

function toView(row: Record<string, unknown>): OutboxMessageView {
  const date = (key: string) => (row[key] === null ? null : new Date(row[key] as string | Date));
  return {
    id: row['id'] as string,
    event: row['event'] as string,
    channel: row['channel'] as OutboxChannel,
    recipient: row['recipient'] as string,
    settlementId: (row['settlement_id'] as string | null) ?? null,
    dedupeKey: row['dedupe_key'] as string,
    status: row['status'] as OutboxStatus,
    attempts: Number(row['attempts']),
    lastError: (row['last_error'] as string | null) ?? null,
    createdAt: date('created_at')!,
    availableAt: date('available_at')!,
    lastAttemptAt: date('last_attempt_at'),
    sentAt: date('sent_at'),
    deadAt: date('dead_at'),
  };
}
