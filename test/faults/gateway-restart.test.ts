import { beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from './support/invariants.js';
import { lensJourney, type StatusCounts } from './support/lens-load.js';
import {
  FAULT_ANSWERS,
  newParty,
  newSettlement,
  walk,
  type Party,
} from './support/settlement-load.js';
import { graphqlAt } from '../support/clients.js';
import { cli, faults, killAndAwaitRestart, until } from './support/fault-stack.js';

/**
 * Issue 16, its meaning changed by issue 27: the standalone gateway SIGKILLed under lens and
 * settlement load through the REST adapter. Since issue 27 the adapter runs its gateway engine in
 * its own process and the standalone gateway serves GraphQL consoles only, so the kill no longer
 * interrupts REST: while the gateway is down, REST answers go on and none is a 503; the
 * orchestrator restarts the gateway and consoles are answered again; every request ends once and
 * every invariant holds. (A process on the REST path dying under load: lens-kill.test.ts.)
 */
const LENS_CLIENTS = 4;
const SETTLEMENTS = 3;

let key: string;
let party: Party;

beforeAll(async () => {
  key = await cli('lens:create-key', '--credits', '1000', '--rate-limit', '100000');
  party = await newParty(faults().urls.gateway);
});

describe('gateway restarted under load', () => {
  it('every request ends once, every invariant holds', async () => {
    const rest = [faults().urls.rest];
    const ids = await Promise.all(
      Array.from({ length: SETTLEMENTS }, () => newSettlement(faults().urls.gateway, party)),
    );
    const counts: StatusCounts = {};
    const settlementLog = { statuses: [] as number[] };
    let stopLoad = false;
    let n = 0;
    const clients = Array.from({ length: LENS_CLIENTS }, async (_, c) => {
      const done = [];
      while (!stopLoad) done.push(await lensJourney(rest, key, `gw.${c}.${n++}`, counts));
      return done;
    });
    const walks = ids.map((id) => walk(rest, party, id, settlementLog));
    const answered = async () => Object.values(counts).reduce((a, b) => a + b, 0);
    // The kill lands under load: every client has had answers...
    await until(answered, (n) => n >= LENS_CLIENTS * 2, 'lens load running');
    const beforeKill = { ...counts };
    const restartMs = await killAndAwaitRestart('gateway');
    const duringOutage = Object.fromEntries(
      Object.entries(counts).map(([status, n]) => [status, n - (beforeKill[Number(status)] ?? 0)]),
    );
    // Consoles reach the restarted gateway.
    const explorer = await graphqlAt<{ __typename: string }>(
      faults().urls.gateway,
      '{ __typename }',
    );
    expect(explorer.data?.__typename).toBe('Query');
    // ...and the load goes on through the new gateway for a while before it stops.
    const atRestart = await answered();
    await until(answered, (n) => n >= atRestart + LENS_CLIENTS * 4, 'lens load after restart');
    stopLoad = true;
    const journeys = (await Promise.all(clients)).flat();
    await Promise.all(walks);
    const report = await checkInvariants();
    const settlementCounts: StatusCounts = {};
    for (const s of settlementLog.statuses) settlementCounts[s] = (settlementCounts[s] ?? 0) + 1;
    console.log(
      `gateway restart: back in ${restartMs} ms; lens ${journeys.length} operations, answers ` +
        `${JSON.stringify(counts)} (${JSON.stringify(duringOutage)} while the gateway was down); ` +
        `settlement answers ${JSON.stringify(settlementCounts)}`,
    );
    // REST did not notice: answers while the gateway was down, none of them a 503 or no answer.
    expect(Object.values(duringOutage).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect([duringOutage[503] ?? 0, duringOutage[0] ?? 0]).toEqual([0, 0]);
    expect(journeys.flatMap((j) => j.undocumented)).toEqual([]);
    expect(new Set(journeys.map((j) => j.operationId)).size).toBe(journeys.length);
    expect(settlementLog.statuses.filter((s) => !FAULT_ANSWERS.includes(s))).toEqual([]);
    expect(report.problems).toEqual([]);
  });
});
