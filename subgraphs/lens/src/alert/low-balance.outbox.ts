import { OutboxRepository } from '@campaign/platform';

/** The e-mail event of a tenant's fall below its threshold (DESIGN.md section 7, `X-Event`). */
export const LOW_BALANCE_EVENT = 'LOW_BALANCE_TENANT';

/** The graphile-worker task that delivers one row of the lens outbox. */
export const LENS_DELIVER_OUTBOX_TASK = 'lens_deliver_outbox';

export type LensOutboxChannel = 'EMAIL';

/**
 * The lens database's outbox for the platform's delivery (platform/src/outbox): a row's subject
 * is its tenant. Rows are written by `lens_reserve_credits` (migration low_balance_alert) in the
 * transaction of the reservation that crossed the threshold.
 */
export const lensOutbox = new OutboxRepository<LensOutboxChannel>({
  task: LENS_DELIVER_OUTBOX_TASK,
  subjectColumn: 'tenant_id',
  orderedChannels: [],
});
