import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, releasePorts, repoRoot, type StackUrls } from '@campaign/stack';
import { afterAll, beforeAll } from 'vitest';

/** The alert rules every deployment loads (DESIGN.md section 7). */
export const ALERT_RULES = join(repoRoot, 'ops/prometheus/alerts.yml');

/** Fails with the way to get them when Debian's prometheus package is missing. */
export function requireBinary(name: 'prometheus' | 'promtool'): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (!path)
    throw new Error(`${name} not found: install Debian's prometheus package (.ci/run does)`);
  return path;
}

/** Runs promtool; its output, or a failure with it. */
export function promtool(...args: string[]): string {
  const run = spawnSync(requireBinary('promtool'), args, { encoding: 'utf8', cwd: repoRoot });
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`promtool ${args.join(' ')} failed:\n${output}`);
  return output;
}

export interface RunningPrometheus {
  /** The value of a PromQL instant query with one sample (NaN when it has none). */
  value(query: string): Promise<number>;
  /** Prometheus's answer to a query: `success` with its samples, or its error. */
  query(query: string): Promise<{ status: string; error?: string; samples: number }>;
}

const jobs = (urls: StackUrls) => ({
  'rest-adapter': new URL(urls.rest).host,
  gateway: new URL(urls.gateway).host,
  lens: new URL(urls.lens).host,
  settlement: new URL(urls.settlement).host,
});

/**
 * A real Prometheus (issue 26) scraping the four services of a stack every second, with the
 * project's alert rules loaded; started before the file's tests, stopped after them.
 */
export function usePrometheus(urlsOf: () => StackUrls): RunningPrometheus {
  let child: ChildProcess | undefined;
  let dir = '';
  let base = '';
  let port = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'campaign-prometheus-'));
    const targets = Object.entries(jobs(urlsOf()))
      .map(
        ([job, host]) =>
          `  - job_name: ${job}\n    static_configs:\n      - targets: ['${host}']\n`,
      )
      .join('');
    const config = join(dir, 'prometheus.yml');
    await writeFile(
      config,
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - ${ALERT_RULES}\nscrape_configs:\n${targets}`,
    );
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(
      requireBinary('prometheus'),
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = await fetch(`${base}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error('prometheus did not become ready in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
    releasePorts([port]);
  });
  return {
    async query(query) {
      const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await response.json()) as {
        status: string;
        error?: string;
        data?: { result?: unknown[] };
      };
      return {
        status: body.status,
        ...(body.error ? { error: body.error } : {}),
        samples: body.data?.result?.length ?? 0,
      };
    },
    async value(query) {
      const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await response.json()) as {
        data?: { result?: { value: [number, string] }[] };
      };
      const sample = body.data?.result?.[0];
      return sample ? Number(sample.value[1]) : Number.NaN;
    },
  };
}
