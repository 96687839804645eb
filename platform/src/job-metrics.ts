import { perScrape, scrapedGauge } from './metrics.js';
import { runPrepared, type PreparedSqlStore } from './prepared-sql.js';
import type { WorkerSupervisor } from './worker-supervisor.js';

/** Jobs whose time has come and that no worker holds, by task: what waits for a free worker. */
const JOBS_WAITING = {
  name: 'metrics_jobs_waiting',
  text: `select task_identifier as task, count(*)::int as waiting,
                extract(epoch from now() - min(run_at))::float8 as oldest
           from graphile_worker.jobs
          where locked_at is null and run_at <= now() and attempts < max_attempts
          group by task_identifier`,
};

/**
 * The job runner's series (issue 26): `jobs_waiting` and `jobs_oldest_waiting_age_seconds` by
 * task (0 when nothing waits), and `job_runner_up` (1 while the runner is connected and
 * listening; 0 while the supervisor is replacing it), all read when Prometheus scrapes.
 */
export function observeJobRunner(
  runner: Pick<WorkerSupervisor, 'health'>,
  store: () => PreparedSqlStore,
  tasks: readonly string[],
): void {
  const waiting = perScrape(async () => {
    const rows = await runPrepared<{ task: string; waiting: number; oldest: number }>(
      store(),
      JOBS_WAITING,
      [],
    );
    return new Map(rows.map((row) => [row.task, row]));
  });
  scrapedGauge(
    'jobs_waiting',
    'Jobs due that no worker runs yet, by task.',
    ['task'],
    async (g) => {
      const now = await waiting();
      for (const task of tasks) g.set({ task }, now.get(task)?.waiting ?? 0);
    },
  );
  scrapedGauge(
    'jobs_oldest_waiting_age_seconds',
    'How long the oldest due job has waited for a worker, by task (0 when none waits).',
    ['task'],
    async (g) => {
      const now = await waiting();
      for (const task of tasks) g.set({ task }, Math.max(0, now.get(task)?.oldest ?? 0));
    },
  );
  scrapedGauge(
    'job_runner_up',
    'Whether this process has a connected job runner (1) or not (0).',
    [],
    (g) => g.set(runner.health().ok ? 1 : 0),
  );
}
