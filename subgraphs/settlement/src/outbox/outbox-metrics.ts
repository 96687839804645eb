import {
  counter,
  perScrape,
  runPrepared,
  scrapedGauge,
  type PreparedSqlStore,
} from '@campaign/platform';

/** Delivery attempts by channel (EMAIL, TEAM_CHAT, TAX_INVOICE_PROVIDER) and outcome. */
export const deliveryOutcomes = counter(
  'outbox_deliveries_total',
  'Outbox delivery attempts, by channel and outcome (sent, retry, dead).',
  ['channel', 'outcome'],
);

/**
 * Waiting and dead messages and the oldest wait: both statuses have partial indexes, so this
 * reads only the rows that wait or died, never the sent history. SENT rows are counted by
 * `outbox_deliveries_total` instead.
 */
const OUTBOX_STATE = {
  name: 'metrics_outbox_state',
  text: `select (select count(*)::int from outbox where status = 'PENDING') as pending,
                (select count(*)::int from outbox where status = 'DEAD') as dead,
                coalesce((select extract(epoch from now() - min(created_at))
                            from outbox where status = 'PENDING'), 0)::float8 as oldest`,
};

const SETTLEMENTS_BY_STATUS = {
  name: 'metrics_settlements_by_status',
  text: `select status, count(*)::int as count from settlement group by status`,
};

/** The settlement subgraph's domain gauges, read when Prometheus scrapes. */
export function observeSettlementDomain(store: () => PreparedSqlStore): void {
  const outbox = perScrape(async () => {
    const [row] = await runPrepared<{ pending: number; dead: number; oldest: number }>(
      store(),
      OUTBOX_STATE,
      [],
    );
    return row ?? { pending: 0, dead: 0, oldest: 0 };
  });
  scrapedGauge(
    'outbox_messages',
    'Outbox messages waiting or dead, by status.',
    ['status'],
    async (g) => {
      const now = await outbox();
      g.set({ status: 'PENDING' }, now.pending);
      g.set({ status: 'DEAD' }, now.dead);
    },
  );
  scrapedGauge(
    'outbox_oldest_pending_age_seconds',
    'Age of the oldest outbox message still waiting (0 when nothing waits).',
    [],
    async (g) => g.set((await outbox()).oldest),
  );
  scrapedGauge('settlements', 'Settlements, by status.', ['status'], async (g) => {
    const rows = await runPrepared<{ status: string; count: number }>(
      store(),
      SETTLEMENTS_BY_STATUS,
      [],
    );
    g.reset();
    for (const row of rows) g.set({ status: row.status }, row.count);
  });
}
