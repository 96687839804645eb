import { beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from './support/invariants.js';
import { count, lensJourney, type StatusCounts } from './support/lens-load.js';
import {
  FAULT_ANSWERS,
  newParty,
  newSettlement,
  restsOf,
  walk,
  type JourneyLog,
  type Party,
} from './support/settlement-load.js';
import {
  call,
  cli,
  faults,
  serviceLogLines,
  sleep,
  startDatabase,
  stopDatabase,
  until,
} from './support/fault-stack.js';

/**
 * Issue 16: PostgreSQL stopped under mixed load (lens calls and settlement journeys, through both
 * replica sets) and started again. Meanwhile callers get a retryable 503; afterwards every
 * service recovers by itself, and every operation, settlement and message ends as it should.
 */
const LENS_CLIENTS = 6;
const SETTLEMENTS = 4;
const OUTAGE_MS = 4000;

let key: string;
let party: Party;
let rests: string[];

beforeAll(async () => {
  rests = restsOf(faults().replicas);
  key = await cli('lens:create-key', '--credits', '1000', '--rate-limit', '100000');
  party = await newParty(faults().urls.gateway);
});

describe('PostgreSQL stopped under mixed load', () => {
  it('answers 503 while it is down, recovers by itself, and keeps every invariant', async () => {
    const ids = await Promise.all(
      Array.from({ length: SETTLEMENTS }, () => newSettlement(faults().urls.gateway, party)),
    );
    const lensCounts: StatusCounts = {};
    const settlementLog: JourneyLog = { statuses: [] };
    let stopLoad = false;
    let journeys = 0;
    // Each lens client keeps calling until the outage is over, one journey after another.
    const lensClients = Array.from({ length: LENS_CLIENTS }, async (_, client) => {
      const done = [];
      while (!stopLoad)
        done.push(await lensJourney(rests, key, `outage.${client}.${journeys++}`, lensCounts));
      return done;
    });
    const walks = ids.map((id) => walk(rests, party, id, settlementLog));

    // The outage lands under load: every lens client has had answers.
    await until(
      async () => Object.values(lensCounts).reduce((a, b) => a + b, 0),
      (n) => n >= LENS_CLIENTS * 2,
      'lens load running',
    );
    await stopDatabase();
    const duringDown: StatusCounts = {};
    const downUntil = Date.now() + OUTAGE_MS;
    while (Date.now() < downUntil) {
      const probe = await call(rests[0]!, 'GET', `/api/admin/settlements/${ids[0]}`, {
        token: party.admin,
      });
      count(duringDown, probe.status);
      if (probe.status === 503)
        expect(probe.body, JSON.stringify(probe.body)).toMatchObject({
          success: false,
          error: { code: 'SERVICE_UNAVAILABLE', retryable: true },
        });
      await sleep(250);
    }
    await startDatabase();
    const back = Date.now();
    // Recovery by itself: a new billed call and a settlement read succeed on both sets.
    let recoveredMs = -1;
    const afterStart: string[] = [];
    while (recoveredMs < 0 && Date.now() - back < 60_000) {
      const reads = await Promise.all(
        rests.map((rest) =>
          call(rest, 'GET', `/api/admin/settlements/${ids[0]}`, { token: party.admin }),
        ),
      );
      if (reads.every((r) => r.status === 200)) recoveredMs = Date.now() - back;
      else {
        const probes = await Promise.all(
          faults().replicas.flatMap((r) =>
            [r.lens, r.settlement, r.gateway].map((url) =>
              fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(2000) })
                .then(async (x) => `${x.status}${x.ok ? '' : (await x.text()).slice(0, 80)}`)
                .catch(() => 'x'),
            ),
          ),
        );
        const seen = `${reads.map((r) => r.status).join(',')} readyz ${probes.join(',')}`;
        if (afterStart.at(-1)?.slice(8) !== seen)
          afterStart.push(`${String(Date.now() - back).padStart(6)}: ${seen}`);
        await sleep(200);
      }
    }
    if (afterStart.length) console.log(`after the database started:\n${afterStart.join('\n')}`);
    stopLoad = true;
    const lensDone = (await Promise.all(lensClients)).flat();
    await Promise.all(walks);
    const fresh = await lensJourney(rests, key, 'after.outage', {});
    // The outage can cut a delivery between the outside system's acceptance and the commit of
    // SENT, and with two replica sets the retry may run on the other set, which does not know the
    // first accepted it: the documented at-least-once window (docs/settlement.md). Counted, after
    // the lease of such a delivery has run out (OUTBOX_LEASE_MS of the faults stack).
    const report = await checkInvariants({ lostAckPossible: true, settleMs: 90_000 });
    console.log(
      `second copies in the lost-acknowledgement window: ${JSON.stringify(report.duplicates)}`,
    );
    console.log(
      `database outage ${OUTAGE_MS} ms: probes ${JSON.stringify(duringDown)}; lens ${lensDone.length} ` +
        `operations, answers ${JSON.stringify(lensCounts)}; settlement answers ` +
        `${JSON.stringify(countOf(settlementLog.statuses))}; recovered ${recoveredMs} ms after start`,
    );

    expect(duringDown[503], JSON.stringify(duringDown)).toBeGreaterThan(0);
    expect(Object.keys(duringDown).filter((s) => s !== '503' && s !== '200')).toEqual([]);
    expect(recoveredMs).toBeGreaterThanOrEqual(0);
    expect(lensDone.flatMap((j) => j.undocumented)).toEqual([]);
    expect(lensCounts[503] ?? 0).toBeGreaterThan(0);
    expect(fresh.status).toBe('SUCCEEDED');
    // Settlement answers only what a walk expects through a fault (FAULT_ANSWERS).
    // An unexpected answer is shown with the services' log lines of its request id.
    const unexpected = settlementLog.unexpected ?? [];
    const logLines = await serviceLogLines(unexpected.map((u) => u.requestId));
    expect(
      settlementLog.statuses.filter((s) => !FAULT_ANSWERS.includes(s)),
      [...unexpected.map((u) => u.answer), ...logLines].join('\n'),
    ).toEqual([]);
    expect(new Set(lensDone.map((j) => j.operationId)).size).toBe(lensDone.length);
    expect(report.problems).toEqual([]);
  });
});

function countOf(statuses: number[]): StatusCounts {
  const counts: StatusCounts = {};
  for (const status of statuses) count(counts, status);
  return counts;
}
