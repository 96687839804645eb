import type { Cell, Fixtures } from './cells.js';

/**
 * Issues 16 and 27: the federation engines side by side on the same subgraphs. Every gateway cell
 * (measured on Apollo's gateway in cells.ts) again on the Hive engine with its own JavaScript
 * planner and with Hive Router's Rust planner, and the REST cells of the target rows again on
 * the adapter of each Hive set, so the targets can be read per engine.
 */
export const ENGINES = [
  { name: 'apollo', gateway: 'gateway (apollo)', rest: 'REST', suffix: '' },
  { name: 'hive', gateway: 'gateway (hive)', rest: 'REST (hive)', suffix: ' hive' },
  {
    name: 'hive, rust planner',
    gateway: 'gateway (hive, rust planner)',
    rest: 'REST (hive, rust planner)',
    suffix: ' hive-rust',
  },
] as const;
/** The measured processes of an engine's set: the subgraphs are shared by all. */
export const engineProcesses = (engine: Engine) => [
  'lens subgraph',
  'settlement subgraph',
  `gateway${engine.suffix}`,
  `rest adapter${engine.suffix}`,
];
export type Engine = (typeof ENGINES)[number];

export type EngineHop =
  'gateway (hive)' | 'gateway (hive, rust planner)' | 'REST (hive)' | 'REST (hive, rust planner)';

/** The gateway and adapter of each Hive set. */
export interface EngineUrls {
  hive: { gateway: string; rest: string };
  hiveRust: { gateway: string; rest: string };
}

/** The rows issue 27 sets REST ÷ reference targets on (targets.ts). */
export const TARGET_ROWS = [
  { row: 'billed call, one tenant one account', target: 0.7 },
  { row: 'billed call, 50 tenants many accounts', target: 0.7 },
  { row: 'replay of one key', target: 0.3 },
  { row: 'operation status', target: 0.5 },
  { row: 'settlement detail', target: 0.3 },
  { row: 'settlement list of 100 + partner.account', target: 0.3 },
] as const;

/** Each Apollo gateway cell and target-row REST cell followed by its Hive counterparts. */
export function withEngineCells(all: Cell[], f: Fixtures): Cell[] {
  const sets = [
    { hops: ENGINES[1], urls: f.urls.engines.hive },
    { hops: ENGINES[2], urls: f.urls.engines.hiveRust },
  ];
  /** `cell`, then the same on each Hive set: its `side` hop and URL in place of Apollo's. */
  const expand = (cell: Cell, side: 'gateway' | 'rest') => [
    cell,
    ...sets.map(({ hops, urls }) => ({
      ...cell,
      hop: hops[side],
      spec: { ...cell.spec, url: cell.spec.url.replace(f.urls[side], urls[side]) },
    })),
  ];
  return all.flatMap((cell) => {
    if (cell.hop === 'gateway (apollo)') return expand(cell, 'gateway');
    if (cell.hop === 'REST' && TARGET_ROWS.some((t) => t.row === cell.row)) {
      return expand(cell, 'rest');
    }
    return [cell];
  });
}
