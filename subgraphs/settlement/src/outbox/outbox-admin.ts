import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { AgencyService } from '../domain/agency/agency.service.js';
import type { Principal } from '../kernel/principal.js';
import { scopeOf } from '../kernel/scope.js';
import { decodePosition, encodePosition, pageOf, parseLimit, type Page } from '../kernel/paging.js';
import {
  DELIVER_OUTBOX_TASK,
  DELIVERY_JOB_MAX_ATTEMPTS,
  outboxJobKey,
  type OutboxChannel,
} from './outbox.js';

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

const COLUMNS = `o.id::text as id, o.event, o.channel, o.recipient, o.settlement_id, o.dedupe_key,
  o.status, o.attempts, o.last_error, o.created_at, o.available_at, o.last_attempt_at, o.sent_at,
  o.dead_at`;

/**
 * The rows the principal may see: a super admin every row; an agency admin the rows of its
 * agency's settlements (a null agency is the default agency, DESIGN.md S9). One `?` for the
 * agency id, or none.
 */
async function scopeSql(
  em: EntityManager,
  agencies: AgencyService,
  principal: Principal,
): Promise<{ sql: string; params: unknown[] }> {
  const { agencyId } = scopeOf(principal);
  if (agencyId === null) return { sql: 'true', params: [] };
  const defaultId = await agencies.defaultAgencyId(em);
  return {
    sql: `exists (select 1 from settlement s where s.id = o.settlement_id
                    and coalesce(s.agency_id::text, ?) = ?)`,
    params: [defaultId, agencyId],
  };
}

/**
 * Admin access to the delivery state of the outbox: the DEAD messages (delivery gave up after
 * OUTBOX_MAX_ATTEMPTS, or the outside system refused them for good) and their re-queueing.
 */
export class OutboxAdminService {
  constructor(private readonly agencies: AgencyService) {}

  /** DEAD messages, newest first, paged like every list of the subgraph. */
  async dead(
    em: EntityManager,
    principal: Principal,
    args: { settlementId?: string | null; cursor?: string | null; limit?: number | null },
  ): Promise<Page<OutboxMessageView>> {
    const pageSize = parseLimit(args.limit);
    const after = decodePosition(CURSOR_TAG, args.cursor);
    const scope = await scopeSql(em, this.agencies, principal);
    const where = `o.status = 'DEAD' and (?::text is null or o.settlement_id = ?) and ${scope.sql}`;
    const params = [args.settlementId ?? null, args.settlementId ?? null, ...scope.params];
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${COLUMNS} from outbox o where ${where} and (?::bigint is null or o.id < ?::bigint)
        order by o.id desc limit ?`,
      [...params, after, after, pageSize + 1],
    );
    const [count] = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from outbox o where ${where}`,
      params,
    );
    return pageOf(rows.map(toView), pageSize, count?.n ?? 0, (last) =>
      encodePosition(CURSOR_TAG, last.id),
    );
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
      const scope = await scopeSql(tx, this.agencies, principal);
      const [row] = await tx.execute<Record<string, unknown>[]>(
        `select o.status from outbox o where o.id = ? and ${scope.sql} for update of o`,
        [id, ...scope.params],
      );
      if (!row) throw notFound();
      if (row['status'] !== 'DEAD') {
        throw new PlatformError(
          'CONFLICT',
          `Outbox message ${id} is ${String(row['status'])}; only a DEAD message can be re-queued.`,
          { currentStatus: row['status'] },
        );
      }
      const [updated] = await tx.execute<Record<string, unknown>[]>(
        `update outbox o set status = 'PENDING', attempts = 0, available_at = now(), dead_at = null
          where o.id = ? returning ${COLUMNS}`,
        [id],
      );
      await tx.execute(
        `select graphile_worker.add_job(?, json_build_object('id', ?::text), job_key => ?,
           max_attempts => ?)`,
        [DELIVER_OUTBOX_TASK, id, outboxJobKey(id), DELIVERY_JOB_MAX_ATTEMPTS],
      );
      return toView(updated!);
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
