import { beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from './support/invariants.js';
import { newParty, newSettlement, restsOf, walk, type Party } from './support/settlement-load.js';
import { faults, sleep, systemDown, systemUp, type OutsideSystem } from './support/fault-stack.js';
import { connectSql } from '@campaign/stack';

/**
 * Issue 16: the SMTP server, the team chat and the tax-invoice provider unreachable for a while
 * (their ports refuse connections, open connections are cut) while settlements move; the changes
 * commit regardless, and once the systems are back the outbox delivers every message: at least
 * once, a second copy only where an acceptance was cut before its acknowledgement.
 */
const SETTLEMENTS = 4;
const OUTAGE_MS = 5000;
const SYSTEMS: OutsideSystem[] = ['mail', 'chat', 'taxInvoice'];

let party: Party;

beforeAll(async () => {
  party = await newParty(faults().urls.gateway);
});

async function pendingOutbox(): Promise<number> {
  const sql = await connectSql(faults().urls.settlementDatabase);
  try {
    const [row] = await sql.query<{ n: string }>(
      `select count(*)::text as n from outbox where status = 'PENDING'`,
    );
    return Number(row!.n);
  } finally {
    await sql.end();
  }
}

describe('outside systems down for a while and back', () => {
  it('changes commit meanwhile and the outbox catches up', async () => {
    const rests = restsOf(faults().replicas);
    const ids = await Promise.all(
      Array.from({ length: SETTLEMENTS }, () => newSettlement(faults().urls.gateway, party)),
    );
    for (const system of SYSTEMS) await systemDown(system);
    const log = { statuses: [] as number[] };
    const started = Date.now();
    try {
      await Promise.all(ids.map((id) => walk(rests, party, id, log)));
      const walkedMs = Date.now() - started;
      const left = Math.max(0, OUTAGE_MS - walkedMs);
      await sleep(left);
      const pendingWhileDown = await pendingOutbox();
      console.log(
        `outside systems down: ${SETTLEMENTS} settlements completed in ${walkedMs} ms, ` +
          `${pendingWhileDown} outbox messages waiting`,
      );
      expect(pendingWhileDown).toBeGreaterThan(0);
    } finally {
      for (const system of SYSTEMS) await systemUp(system);
    }
    const back = Date.now();
    const report = await checkInvariants({ lostAckPossible: true });
    console.log(
      `outside systems back: outbox caught up in ${Date.now() - back} ms; ` +
        `second copies ${JSON.stringify(report.duplicates)}`,
    );
    // Moving a settlement never waits for its messages.
    expect(log.statuses.filter((s) => s !== 200)).toEqual([]);
    expect(report.problems).toEqual([]);
  });
});
