import {
  counter,
  observeJobRunner,
  runPrepared,
  scrapedGauge,
  type PreparedSqlStore,
  type WorkerSupervisor,
} from '@campaign/platform';
import { EXECUTE_TASK, RECONCILE_TASK } from './job-queue.js';
import type { OperationRow } from './operation-record.js';
import { RECONCILIATION_BACKLOG } from './operation.repository.js';

/**
 * The lens engine's series (issue 26; names in DESIGN.md 7). Counters move where an operation
 * settles, from the row the settlement statement returns (no extra query); gauges are read when
 * Prometheus scrapes.
 */
const operations = counter(
  'lens_operations_total',
  'Lens operations that ended, by operation and status.',
  ['operation', 'status'],
);
const charged = counter('lens_credits_charged_total', 'Credits charged, by operation.', [
  'operation',
]);
const refunded = counter('lens_credits_refunded_total', 'Credits refunded, by operation.', [
  'operation',
]);
/**
 * The credits rule of DESIGN.md L3 checked on every settlement this process makes: a terminal
 * operation has reserved = charged + refunded. Never expected to move; an alert if it does.
 */
const unbalanced = counter(
  'lens_credits_invariant_violations_total',
  'Settled operations whose reserved credits differ from charged plus refunded.',
  ['operation'],
);

/** Counts one settled operation (the row `lens_settle_operation` returned). */
export function recordSettled(row: OperationRow): void {
  const operation = row.operation_name;
  operations.inc({ operation, status: row.status });
  const reserved = Number(row.credits_reserved);
  const chargedNow = Number(row.credits_charged);
  const refundedNow = Number(row.credits_refunded);
  if (chargedNow) charged.inc({ operation }, chargedNow);
  if (refundedNow) refunded.inc({ operation }, refundedNow);
  if (reserved !== chargedNow + refundedNow) unbalanced.inc({ operation });
}

/** The lens subgraph's scrape-time gauges: the reconciliation backlog and its job runner. */
export function observeLensDomain(
  store: () => PreparedSqlStore,
  runner: Pick<WorkerSupervisor, 'health'>,
): void {
  scrapedGauge(
    'lens_operations_reconciliation_required',
    'Operations in RECONCILIATION_REQUIRED (outcome unknown, credits still reserved).',
    [],
    async (g) => {
      const [row] = await runPrepared<{ count: number }>(store(), RECONCILIATION_BACKLOG, []);
      g.set(row?.count ?? 0);
    },
  );
  observeJobRunner(runner, store, [EXECUTE_TASK, RECONCILE_TASK]);
}
