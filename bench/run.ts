import 'reflect-metadata';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '@campaign/stack';
import { cells as allCells, COST_HOPS, withCostCells, type Cell } from './src/cells.js';
import { COST_SETS, costRows, costTable, measureCost } from './src/cost.js';
import { withEngineCells } from './src/engine-cells.js';
import { prepareFixtures } from './src/fixtures.js';
import { loadRunner, measurer, type Measured } from './src/measure.js';
import { benchMode } from './src/mode.js';
import { peakRssMb, postgresCpuMs, rssMb } from './src/proc.js';
import { summariseProfiles } from './src/profile.js';
import { summarise, table, type Sample } from './src/report.js';
import { startOtlpSink } from './src/otlp-sink.js';
import {
  DEFAULT_SET,
  HIVE_RUST_SET,
  HIVE_SET,
  METRICS_OFF_SET,
  startBenchStack,
  TRACED_SET,
} from './src/setup.js';
import { targetsTable } from './src/targets.js';

/**
 * `npm run bench` (issues 14 and 27): every hot path at each hop (subgraph, gateway on each
 * federation engine, REST) and on a bare fastify + node-postgres reference doing the same
 * database work, interleaved, in rounds; prints the medians with CPU per request per process,
 * then issue 27's targets per engine, and writes them to bench/results/. The load generator and
 * the reference run as compiled JavaScript in processes of their own.
 * Flags: --duration <s per cell> --rounds <n> --connections <n> --only <row substrings, comma-separated>
 * --profile <dir> (every service under `node --cpu-prof`; a summary per service at the end)
 * --cost-rounds <n> (issue 26's cost, cost.ts) --cost-only (that measurement alone)
 * --node-env production|development (default production: the services and the reference run as
 * docs/operations.md says production runs them, with fresh secrets; mode.ts).
 */
const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    only: { type: 'string' },
    profile: { type: 'string' },
    'cost-rounds': { type: 'string', default: '11' },
    'cost-only': { type: 'boolean', default: false },
    'node-env': { type: 'string', default: 'production' },
  },
});
const DURATION_S = Number(flags.duration);
const ROUNDS = Number(flags.rounds);
const CONNECTIONS = Number(flags.connections);
const mode = benchMode(flags['node-env']);

const started = Date.now();
const say = (line: string) =>
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`);

execFileSync(process.execPath, [`${repoRoot}scripts/build.mjs`, '--quiet'], { stdio: 'inherit' });
const compiled = (file: string) => `${repoRoot}bench/dist/${file}`;

function spawnReady(
  file: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url?: string }> {
  const child = fork(compiled(file), [], {
    env: { ...process.env, ...env },
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited (${code})`)));
    child.once('message', (m: { url?: string }) =>
      resolve({ child, ...(m.url ? { url: m.url } : {}) }),
    );
  });
}

/** Processes of the other sets by what they are (their columns in the table). */
const setName = (name: string) =>
  name
    .replace(`#${HIVE_SET + 1}`, 'hive')
    .replace(`#${HIVE_RUST_SET + 1}`, 'hive-rust')
    .replace(`#${DEFAULT_SET + 1}`, '(default)')
    .replace(`#${METRICS_OFF_SET + 1}`, '(metrics off)')
    .replace(`#${TRACED_SET + 1}`, '(tracing 100 %)');

if (flags.profile) {
  await mkdir(flags.profile, { recursive: true });
  // Read by the stack for every service it forks (stack/src/processes.ts).
  process.env['SERVICE_NODE_ARGS'] = `--cpu-prof --cpu-prof-dir=${resolve(flags.profile)}`;
}
say(`starting PostgreSQL (with pg_stat_statements) and the stack (NODE_ENV=${mode.nodeEnv})`);
const otlpSink = await startOtlpSink();
const { stack, db, dataDir } = await startBenchStack(otlpSink.url, mode);
const stopAll: (() => unknown)[] = [];
const pidNames = new Map<number, string>();
try {
  const urls = stack.urls;
  const reference = await spawnReady('reference/server.js', {
    LENS_DATABASE_URL: urls.lensDatabase,
    SETTLEMENT_DATABASE_URL: urls.settlementDatabase,
    LENS_UPSTREAM_URL: urls.upstream,
    // The same NODE_ENV as the services: fastify and node-postgres run the same builds.
    ...(mode.serviceEnv['NODE_ENV'] ? { NODE_ENV: mode.serviceEnv['NODE_ENV'] } : {}),
  });
  stopAll.push(() => reference.child.kill());
  // One load generator per cost set besides the first: the three are loaded at the same time.
  const loaders = await Promise.all([0, 1, 2].map(() => spawnReady('load-worker.js')));
  for (const l of loaders) stopAll.push(() => l.child.kill());
  const runners = loaders.map((l) => loadRunner(l.child));

  say('fixtures: tenants, settlements, one operation to replay');
  const fixtures = await prepareFixtures(stack, reference.url!, mode);
  const chosen = withEngineCells(withCostCells(allCells(fixtures), fixtures), fixtures).filter(
    (c) => !flags.only || flags.only.split(',').some((part) => c.row.includes(part)),
  );
  const isCost = (c: Cell) => (COST_HOPS as readonly string[]).includes(c.hop);
  const cells = flags['cost-only'] ? [] : chosen.filter((c) => !isCost(c));
  const costCells = chosen.filter(isCost);
  // The cost sets' processes are measured by cost.ts alone, not as columns of every cell.
  const inCostSet = (name: string) => COST_SETS.some((set) => name.endsWith(`(${set})`));
  const pidsOf = (suffix: string) => () =>
    stack.services.filter((s) => setName(s.name).endsWith(suffix)).map((s) => s.pid() ?? 0);

  const postmaster = Number(readFileSync(`${db.dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  const measured: Measured[] = [
    ...stack.services
      .map((s) => ({ name: setName(s.name), pid: s.pid }))
      .filter((s) => !inCostSet(s.name)),
    { name: 'postgres', pid: () => postmaster, cpu: postgresCpuMs },
    { name: 'upstream sim', pid: () => process.pid },
    { name: 'reference', pid: () => reference.child.pid },
  ];
  const meter = measurer({
    measured,
    postgresUrl: db.urlFor('postgres'),
    runLoad: runners[0]!,
    connections: CONNECTIONS,
    say,
  });

  for (const s of stack.services) pidNames.set(s.pid() ?? 0, setName(s.name));
  for (const p of measured) pidNames.set(p.pid() ?? 0, p.name);
  const { backgroundPerS, idleCpu } = await meter.measureIdle(3);
  // Idle: after those 3 s without load (the fixtures' requests are over), before any cell.
  const idleRss = Object.fromEntries(measured.map((p) => [p.name, rssMb(p.pid() ?? 0)]));

  if (cells.length) say(`warm-up: ${cells.length} cells × 1 s`);
  for (const cell of cells) {
    await meter.measure(cell, 1, true);
    await new Promise((r) => setTimeout(r, 1000)); // requests still in flight finish
  }
  const samples = new Map<(typeof cells)[number], Sample[]>(cells.map((c) => [c, []]));
  for (let round = 1; cells.length && round <= ROUNDS; round++) {
    say(
      `round ${round}/${ROUNDS}: ${cells.length} cells × ${DURATION_S} s, ${CONNECTIONS} connections`,
    );
    for (const cell of cells) samples.get(cell)!.push(await meter.measure(cell, DURATION_S));
  }
  const results = new Map([...samples].map(([c, s]) => [c, summarise(s)]));
  const costRounds = Number(flags['cost-rounds']);
  const rowsOfCost = costRows(costCells);
  // --cost-rounds 0: no cost table (it would hold only NaN).
  const cost =
    rowsOfCost.length && costRounds > 0
      ? await measureCost({
          sets: COST_SETS.map((name, i) => ({
            name,
            pids: pidsOf(`(${name})`),
            runLoad: runners[i]!,
          })),
          rows: rowsOfCost,
          rounds: costRounds,
          durationS: Math.max(DURATION_S, 3),
          say,
        })
      : null;
  const peakRss = Object.fromEntries(measured.map((p) => [p.name, peakRssMb(p.pid() ?? 0)]));
  const names = measured.map((p) => p.name);
  const report = [
    `# Benchmark ${new Date().toISOString()}`,
    '',
    `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}; ` +
      `${CONNECTIONS} connections, medians of ${ROUNDS} interleaved rounds; each cell a fixed number of requests, about ${DURATION_S} s at its 1 s warm-up's rate (at least ${CONNECTIONS}); ` +
      `background SQL ${backgroundPerS.toFixed(1)} statements/s subtracted; ` +
      `services and reference with NODE_ENV=${mode.nodeEnv}` +
      (mode.nodeEnv === 'production'
        ? ' (fresh secrets, metrics token).'
        : ' (development secrets).'),
    '',
    ...(cells.length ? [table(cells, results, names), ''] : []),
    ...(cost
      ? ['## The cost of metrics and tracing (issue 26)', '', costTable(cost, costRounds), '']
      : []),
    '| process | idle RSS MB | peak RSS MB | idle CPU ms/s |',
    '|---|---:|---:|---:|',
    ...names.map(
      (n) =>
        `| ${n} | ${idleRss[n]!.toFixed(0)} | ${peakRss[n]!.toFixed(0)} | ${idleCpu(n).toFixed(0)} |`,
    ),
    '',
    ...(cells.length
      ? ['## Targets (issue 27), per engine', '', targetsTable(cells, results, idleRss), '']
      : []),
  ].join('\n');
  console.log(`\n${report}`);
  const dir = `${repoRoot}bench/results`;
  await mkdir(dir, { recursive: true });
  const file = `${dir}/${new Date().toISOString().replace(/[:.]/g, '-')}.md`;
  await writeFile(file, report);
  say(`written to ${file}`);
} finally {
  for (const stop of stopAll) stop();
  await stack.stop();
  await otlpSink.close();
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (flags.profile) console.log(`\n${await summariseProfiles(flags.profile, pidNames)}`);
}
