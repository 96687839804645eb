import { loadavg } from 'node:os';
import { COST_HOPS, COST_ROWS, type Cell, type CostHop } from './cells.js';
import type { LoadResult, LoadSpec } from './load-worker.js';
import { preciseCpuMs } from './proc.js';
import { INTERVAL_CONFIDENCE, medianInterval, verdict } from './interval.js';
import { median } from './report.js';

/** The three sets, by what they run: metrics off, metrics on (the default), tracing at 100 %. */
export const COST_SETS = ['metrics off', 'default', 'tracing 100 %'] as const;

export interface CostSet {
  name: (typeof COST_SETS)[number];
  /** The set's service processes (read again every round: a pid is known once started). */
  pids: () => number[];
  /** The set's own load generator. */
  runLoad: (spec: LoadSpec) => Promise<LoadResult>;
}

/** One row (the billed call, the replay) as each set is asked it, by set name. */
export interface CostRow {
  row: string;
  specs: Record<CostSet['name'], Omit<LoadSpec, 'connections' | 'durationS'>>;
}

export interface CostResult {
  row: string;
  /** Median CPU ms per request of each set's services, idle (measured before the row) taken off. */
  perRequest: Record<CostSet['name'], number>;
  /** Median req/s of each set (all three loaded at once). */
  rps: Record<CostSet['name'], number>;
  /** Per round: default ÷ metrics off − 1, and tracing ÷ default − 1. */
  metrics: number[];
  tracing: number[];
  failed: number;
  /**
   * The median share of the default set's CPU in a round that was its idle estimate: at the low
   * rates a loaded machine allows, a third of the CPU may be idle work, and the estimate's error
   * then weighs on every round alike.
   */
  idleShare: number;
}

const bySet = <T>(value: (name: CostSet['name']) => T): Record<CostSet['name'], T> => ({
  'metrics off': value('metrics off'),
  default: value('default'),
  'tracing 100 %': value('tracing 100 %'),
});

/** Where each set is asked, among the cells (cells.ts). */
const HOP_OF: Record<CostSet['name'], CostHop> = {
  'metrics off': COST_HOPS[1],
  default: COST_HOPS[0],
  'tracing 100 %': COST_HOPS[2],
};

/** The rows of COST_ROWS among `cells`, each as the three sets are asked it. */
export function costRows(cells: Cell[]): CostRow[] {
  return COST_ROWS.filter((row) => cells.some((c) => c.row === row)).map((row) => ({
    row,
    specs: bySet((name) => cells.find((c) => c.row === row && c.hop === HOP_OF[name])!.spec),
  }));
}

/** Load generator connections per set (three sets at once on the machine). */
const CONNECTIONS = 8;
const BUDGETS = { metrics: 0.05, tracing: 0.15 };
/** Requests per set and round at least (a slow machine gets longer rounds). */
const MIN_REQUESTS = 100;
/**
 * The rounds' rate, as a share of the three sets' median rate in the warm-up round (the median:
 * one set stalled for a moment must not set the pace; the share leaves the slowest room).
 */
const RATE_SHARE = 0.6;
/** The idle estimate: one-second windows per set, their mean without the extremes, after a pause. */
const IDLE_WINDOWS = 5;
const IDLE_SETTLE_MS = 1000;
/** In-flight answers of the last instant are served before the CPU is read again. */
const SETTLE_MS = 300;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** The mean without the highest and the lowest value (a burst in one window weighs nothing). */
const trimmedMean = (xs: number[]) =>
  sum([...xs].sort((a, b) => a - b).slice(1, -1)) / Math.max(xs.length - 2, 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 26, item 4: the cost of metrics and of tracing, measured so that the figure holds on a
 * loaded machine. The three sets (metrics off, the default, tracing every request) are loaded AT
 * THE SAME TIME, each by a load generator of its own, so whatever else the machine runs weighs on
 * all three alike; a set's CPU is that of its own services (lens, settlement, gateway, adapter)
 * less its idle CPU over the same time (job runners, probes, the exporter's timer), per request
 * answered. All three are asked at the same rate (RATE_SHARE of their median rate in the warm-up
 * round): CPU per request also falls as a process gets busier (fixed work per event-loop turn
 * spread over more requests), which would favour whichever set the machine served faster. Each
 * round gives one ratio per budget, and the figure is the median of those ratios.
 * PostgreSQL is left out: it is shared by the three sets, and neither metrics nor tracing
 * changes the statements a request runs.
 */
export async function measureCost(options: {
  sets: CostSet[];
  rows: CostRow[];
  rounds: number;
  durationS: number;
  say: (line: string) => void;
}): Promise<{ results: CostResult[]; loadAverage: [number, number] }> {
  const { sets, rounds, durationS, say } = options;
  const cpuOf = (set: CostSet) => sum(set.pids().map((pid) => preciseCpuMs(pid)));
  const loads: number[] = [loadavg()[0]!];
  const results: CostResult[] = [];
  for (const { row, specs } of options.rows) {
    // CPU ms per ms of wall time each set spends with no request at all, measured again before
    // each row: the background (job runners, timers) drifts, and at a loaded machine's low
    // rates its estimate is a large part of every round's figure. One-second windows without
    // the highest and the lowest, after a second for the previous row's after-effects: one set's
    // burst in one window (a job, a collection) once made its idle three times the others'.
    await sleep(IDLE_SETTLE_MS);
    const windows: number[][] = sets.map(() => []);
    for (let w = 0; w < IDLE_WINDOWS; w++) {
      const start = sets.map(cpuOf);
      const t0 = performance.now();
      await sleep(1000);
      sets.forEach((set, i) =>
        windows[i]!.push((cpuOf(set) - start[i]!) / (performance.now() - t0)),
      );
    }
    const idle = windows.map(trimmedMean);
    say(
      `cost: ${row}, idle CPU per set ${sets.map((s, i) => `${s.name} ${idle[i]!.toFixed(4)}`).join(', ')}`,
    );
    const perRound: number[][] = sets.map(() => []);
    const rps: number[][] = sets.map(() => []);
    let failed = 0;
    const idleShares: number[] = [];
    let rate: number | undefined;
    // Round 0 warms each set's code paths for this row and is not counted.
    for (let round = 0; round <= rounds; round++) {
      say(
        `cost: ${row}, round ${round}/${rounds}${round === 0 ? ' (warm-up)' : ` at ${rate} req/s`}`,
      );
      const before = sets.map(cpuOf);
      const started = performance.now();
      const answers = await Promise.all(
        sets.map((set) =>
          set.runLoad({
            ...specs[set.name],
            connections: CONNECTIONS,
            // Enough requests per round that the idle estimate stays a small part of it.
            durationS: rate ? Math.max(durationS, Math.ceil(MIN_REQUESTS / rate)) : durationS,
            ...(rate ? { rate } : {}),
          }),
        ),
      );
      await sleep(SETTLE_MS);
      const elapsed = performance.now() - started;
      if (round === 0) {
        // Every set at the same rate, one they all keep up with: CPU per request depends
        // on the rate too (a busier event loop spreads its fixed work over more requests).
        rate = Math.max(5, Math.floor(RATE_SHARE * median(answers.map((a) => a.rps))));
        continue;
      }
      sets.forEach((set, i) => {
        const all = cpuOf(set) - before[i]!;
        const used = all - idle[i]! * elapsed;
        if (set.name === 'default') idleShares.push((idle[i]! * elapsed) / all);
        perRound[i]!.push(used / Math.max(answers[i]!.requests, 1));
        rps[i]!.push(answers[i]!.rps);
        failed += answers[i]!.failed;
      });
      loads.push(loadavg()[0]!);
    }
    const of = (name: CostSet['name']) => sets.findIndex((s) => s.name === name);
    const [off, base, traced] = [of('metrics off'), of('default'), of('tracing 100 %')];
    const ratio = (a: number, b: number) =>
      perRound[a]!.map((value, round) => value / perRound[b]![round]! - 1);
    results.push({
      row,
      perRequest: bySet((name) => median(perRound[of(name)]!)),
      rps: bySet((name) => median(rps[of(name)]!)),
      metrics: ratio(base, off),
      tracing: ratio(traced, base),
      failed,
      idleShare: median(idleShares),
    });
  }
  return { results, loadAverage: [Math.min(...loads), Math.max(...loads)] };
}

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %`;

/** The cost table: per row, each set's CPU per request, each cost against its budget. */
export function costTable(
  measured: { results: CostResult[]; loadAverage: [number, number] },
  rounds: number,
): string {
  const lines = [
    `Sets loaded at the same time and at the same rate (${100 * RATE_SHARE} % of the sets' median rate ` +
      `in a warm-up round), ${rounds} rounds, each set's idle CPU ` +
      `subtracted, CPU of the sets' services (PostgreSQL shared, left out), median of the ` +
      `per-round ratios with its ${100 * INTERVAL_CONFIDENCE} % interval (order statistics; a budget is ` +
      `reached or not only when the whole interval says so); CPU from the scheduler's ns clock; ` +
      `load average ${measured.loadAverage.map((l) => l.toFixed(1)).join('-')}.`,
    '',
    '| row | CPU ms/req metrics off | default | tracing 100 % | req/s off / default / traced | idle share (default) | metrics (budget ≤ 5 %) | tracing (budget ≤ 15 %) | ratios per round, metrics; tracing |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of measured.results) {
    const m = median(r.metrics);
    const t = median(r.tracing);
    const [mi, ti] = [medianInterval(r.metrics), medianInterval(r.tracing)];
    const within = ([lo, hi]: [number, number]) => `(${pct(lo)} … ${pct(hi)})`;
    const cpu = (n: CostSet['name']) => r.perRequest[n].toFixed(2);
    const rps = (n: CostSet['name']) => r.rps[n].toFixed(0);
    lines.push(
      `| ${r.row}${r.failed ? ` (${r.failed} failed)` : ''} | ${cpu('metrics off')} | ${cpu('default')} | ${cpu('tracing 100 %')} | ` +
        `${rps('metrics off')} / ${rps('default')} / ${rps('tracing 100 %')} | ` +
        `${(100 * r.idleShare).toFixed(0)} % | ` +
        `${pct(m)} ${within(mi)} ${verdict(mi, BUDGETS.metrics)} | ` +
        `${pct(t)} ${within(ti)} ${verdict(ti, BUDGETS.tracing)} | ` +
        `${r.metrics.map(pct).join(', ')}; ${r.tracing.map(pct).join(', ')} |`,
    );
  }
  return lines.join('\n');
}
