import type { PreparedStatement } from '@campaign/platform';

/** The statements behind the settlement subgraph's scrape-time gauges (issue 26). */

/**
 * Waiting and dead messages and the oldest wait: both statuses have partial indexes, so this
 * reads only the rows that wait or died, never the sent history. SENT rows are counted by
 * `outbox_deliveries_total` instead.
 */
export const OUTBOX_STATE: PreparedStatement = {
  name: 'metrics_outbox_state',
  text: `select (select count(*)::int from outbox where status = 'PENDING') as pending,
                (select count(*)::int from outbox where status = 'DEAD') as dead,
                coalesce((select extract(epoch from now() - min(created_at))
                            from outbox where status = 'PENDING'), 0)::float8 as oldest`,
};

export const SETTLEMENTS_BY_STATUS: PreparedStatement = {
  name: 'metrics_settlements_by_status',
  text: `select status, count(*)::int as count from settlement group by status`,
};
