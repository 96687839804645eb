import type { Cell } from './cells.js';

/** One measured run of one cell. */
export interface Sample {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  /** CPU ms per request, by process name. */
  cpu: Record<string, number>;
  statements: number | null;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The median of every figure over the interleaved rounds of one cell. */
export function summarise(samples: Sample[]): Sample {
  const names = Object.keys(samples[0]!.cpu);
  const statements = samples.map((s) => s.statements).filter((s): s is number => s !== null);
  return {
    requests: median(samples.map((s) => s.requests)),
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    failed: samples.reduce((sum, s) => sum + s.failed, 0),
    cpu: Object.fromEntries(names.map((n) => [n, median(samples.map((s) => s.cpu[n] ?? 0))])),
    statements: statements.length ? median(statements) : null,
  };
}

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The markdown table: one line per row and hop, the ratios against the row's reference. */
export function table(cells: Cell[], results: Map<Cell, Sample>, processes: string[]): string {
  const short = processes.map((p) => p.replace(' subgraph', '').replace('rest adapter', 'rest'));
  const lines = [
    `| row | hop | req/s | p50 ms | p99 ms | failed | ${short.map((p) => `CPU ms/req ${p}`).join(' | ')} | CPU ms/req total | SQL stmts/req | req/s ÷ ref | p99 ÷ ref |`,
    `|---|---|${'---:|'.repeat(6 + processes.length + 3)}`,
  ];
  for (const cell of cells) {
    const s = results.get(cell);
    if (!s) continue;
    const ref = results.get(cells.find((c) => c.row === cell.row && c.hop === 'reference')!);
    const total = Object.values(s.cpu).reduce((a, b) => a + b, 0);
    const ratio = ref && cell.hop !== 'reference' ? `${fixed((100 * s.rps) / ref.rps, 0)} %` : '';
    const p99 = ref && cell.hop !== 'reference' ? `${fixed(s.p99 / ref.p99)}×` : '';
    lines.push(
      `| ${cell.row} | ${cell.hop} | ${fixed(s.rps, 0)} | ${s.p50} | ${s.p99} | ${s.failed} | ${processes
        .map((p) => fixed(s.cpu[p] ?? 0, 2))
        .join(
          ' | ',
        )} | ${fixed(total, 2)} | ${s.statements === null ? '' : fixed(s.statements)} | ${ratio} | ${p99} |`,
    );
  }
  return lines.join('\n');
}
