import type { ChildProcess } from 'node:child_process';
import type { Cell } from './cells.js';
import type { LoadResult, LoadSpec } from './load-worker.js';
import { cpuMs } from './proc.js';
import type { Sample } from './report.js';
import { withSql } from './setup.js';

/** A process whose CPU is counted per request (PostgreSQL's with its backends). */
export interface Measured {
  name: string;
  pid: () => number | undefined;
  cpu?: (pid: number) => number;
}

/** Sends one load at a time to the load-worker process and waits for its result. */
export function loadRunner(loader: ChildProcess): (spec: LoadSpec) => Promise<LoadResult> {
  let nextId = 0;
  return (spec) =>
    new Promise<LoadResult>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (m: { id: number; result?: LoadResult; error?: string }) => {
        if (m.id !== id) return;
        loader.off('message', onMessage);
        if (m.result) resolve(m.result);
        else reject(new Error(m.error));
      };
      loader.on('message', onMessage);
      loader.send({ id, spec });
    });
}

/**
 * CPU per process and SQL statements around each load of a cell. After the warm-up, a fixed
 * number of requests (about `durationS` at the warm-up's rate) rather than a duration: every
 * request counted has been answered, and no request still in flight when the load stops spends
 * its CPU in the next cell's figures.
 */
export function measurer(options: {
  measured: Measured[];
  postgresUrl: string;
  runLoad: (spec: LoadSpec) => Promise<LoadResult>;
  connections: number;
  say: (line: string) => void;
}) {
  const { measured, runLoad, connections, say } = options;
  const cpuNow = () =>
    Object.fromEntries(measured.map((p) => [p.name, (p.cpu ?? cpuMs)(p.pid() ?? 0)]));
  const statementsNow = () =>
    withSql(options.postgresUrl, async (c) =>
      Number(
        (
          await c.query<{
            n: string;
          }>(`select coalesce(sum(calls), 0) as n from pg_stat_statements s
        join pg_database d on d.oid = s.dbid where d.datname in ('lens', 'settlement')`)
        ).rows[0]!.n,
      ),
    );
  let backgroundPerS = 0;
  const warmRate = new Map<Cell, number>();
  return {
    cpuNow,
    /** Background statements (job runners, reconciler, outbox) per second, taken off each count. */
    async measureIdle(seconds: number) {
      const statements = await statementsNow();
      const before = cpuNow();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      backgroundPerS = ((await statementsNow()) - statements) / seconds;
      const after = cpuNow();
      return {
        backgroundPerS,
        idleCpu: (name: string) => (after[name]! - before[name]!) / seconds,
      };
    },
    async measure(cell: Cell, durationS: number, warmUp = false): Promise<Sample> {
      const statementsBefore = cell.countStatements ? await statementsNow() : 0;
      const before = cpuNow();
      const t0 = Date.now();
      const rate = warmRate.get(cell);
      const amount =
        rate === undefined ? undefined : Math.max(connections, Math.round(rate * durationS));
      const result = await runLoad({
        ...cell.spec,
        connections,
        durationS,
        ...(amount ? { amount } : {}),
      });
      const elapsedS = (Date.now() - t0) / 1000;
      const after = cpuNow();
      const per = Math.max(result.requests, 1);
      const statements = cell.countStatements
        ? ((await statementsNow()) - statementsBefore - backgroundPerS * elapsedS) / per
        : null;
      if (result.sampleFailure)
        say(`  ${cell.row} @ ${cell.hop}: ${result.failed} failed, e.g. ${result.sampleFailure}`);
      if (warmUp) warmRate.set(cell, result.rps);
      return {
        ...result,
        cpu: Object.fromEntries(
          measured.map((p) => [p.name, (after[p.name]! - before[p.name]!) / per]),
        ),
        statements,
      };
    },
  };
}
