import { OWN_DOCUMENT_HOP, type Cell } from './cells.js';
import { ENGINES, engineProcesses, TARGET_ROWS } from './engine-cells.js';
import type { Sample } from './report.js';

/** Issue 27's targets. */
const RSS_TARGET_MB = 120;
const GATEWAY_REPLAY_CPU_TARGET_MS = 0.5;

const mark = (ok: boolean) => (ok ? '✓' : '✗');

/**
 * Issue 27: every row of the issue's table with its target, per engine, and whether it is
 * reached: REST ÷ reference in req/s (same run), the highest idle RSS among an engine's services
 * (its gateway and adapter, and the shared subgraphs), and the gateway's CPU per replay at the
 * gateway hop.
 */
export function targetsTable(
  cells: Cell[],
  results: Map<Cell, Sample>,
  idleRss: Record<string, number>,
): string {
  const at = (row: string, hop: Cell['hop']) => {
    const cell = cells.find((c) => c.row === row && c.hop === hop);
    return cell ? results.get(cell) : undefined;
  };
  const lines = [
    `| row | target | ${ENGINES.map((e) => e.name).join(' | ')} |`,
    `|---|---|${'---:|'.repeat(ENGINES.length)}`,
  ];
  for (const { row, target } of TARGET_ROWS) {
    const ref = at(row, 'reference');
    const figures = ENGINES.map((engine) => {
      const rest = at(row, engine.rest);
      if (!ref || !rest) return 'not run';
      const ratio = rest.rps / ref.rps;
      return `${ratio.toFixed(2)} ${mark(ratio >= target)}`;
    });
    lines.push(`| ${row}: REST ÷ reference | ≥ ${target.toFixed(2)} | ${figures.join(' | ')} |`);
  }
  const rss = ENGINES.map((engine) => {
    const own = engineProcesses(engine).filter((p) => idleRss[p] !== undefined);
    const highest = Math.max(...own.map((p) => idleRss[p]!));
    return `${highest.toFixed(0)} MB ${mark(highest <= RSS_TARGET_MB)} (${own
      .map((p) => `${p.split(' ')[0]} ${idleRss[p]!.toFixed(0)}`)
      .join(', ')})`;
  });
  lines.push(`| idle RSS per service (highest) | ≤ ${RSS_TARGET_MB} MB | ${rss.join(' | ')} |`);
  const gatewayCpu = ENGINES.map((engine) => {
    const sample = at('replay of one key', engine.gateway);
    const process = engineProcesses(engine)[2]!;
    const ms = sample?.cpu[process];
    return ms === undefined
      ? 'not run'
      : `${ms.toFixed(2)} ms ${mark(ms <= GATEWAY_REPLAY_CPU_TARGET_MS)}`;
  });
  lines.push(
    `| gateway CPU per replay (gateway hop) | ≤ ${GATEWAY_REPLAY_CPU_TARGET_MS} ms | ${gatewayCpu.join(' | ')} |`,
  );
  // The same replay with a document of the client's own (Apollo Server's path; Apollo only).
  const own = at('replay of one key', OWN_DOCUMENT_HOP)?.cpu[engineProcesses(ENGINES[0])[2]!];
  if (own !== undefined)
    lines.push(
      `| gateway CPU per replay, a client's own document | (not a target) | ${own.toFixed(2)} ms |${' |'.repeat(ENGINES.length - 1)}`,
    );
  return lines.join('\n');
}
