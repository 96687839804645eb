import { perScrape, runPrepared, scrapedGauge, type PreparedSqlStore } from '@campaign/platform';
import { OUTBOX_STATE, SETTLEMENTS_BY_STATUS } from './outbox-metrics.repository.js';

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
