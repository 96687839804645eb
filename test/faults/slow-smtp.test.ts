import { beforeAll, describe, expect, it } from 'vitest';
import { connectSql, type Sql } from '@campaign/stack';
import { checkInvariants } from './support/invariants.js';
import { newParty, newSettlement, restsOf, walk, type Party } from './support/settlement-load.js';
import { call, faults, sleep, systemSlow, until } from './support/fault-stack.js';

/**
 * Issue 22: delivery holds no transaction open across the outside call. The SMTP server takes
 * 20 s to answer while at least 30 e-mails are due: no connection to the settlement database is
 * busy or in a transaction for longer than a moment (the old delivery kept one 'idle in
 * transaction', its row locked, per message being sent), other settlement requests keep
 * answering, and once the server answers every message is delivered exactly once.
 */
const SLOW_MS = 20_000;
const DUE_EMAILS = 30;
/** Each walked settlement sends at least three e-mails (paid: two; completed: one). */
const SETTLEMENTS = 11;
const WATCH_MS = 8_000;

let party: Party;
let db: Sql;

beforeAll(async () => {
  party = await newParty(faults().urls.gateway);
  db = await connectSql(faults().urls.settlementDatabase);
  // Start from a quiet outbox: the proxy cuts open mail connections when it turns slow.
  await until(
    () => db.query<{ n: number }>(`select count(*)::int as n from outbox where status = 'PENDING'`),
    ([row]) => row?.n === 0,
    'an empty outbox',
  );
  return () => db.end();
});

/** Connections of the settlement database busy or inside a transaction for over 2 s. */
const heldConnections = async () =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend'
          and pid <> pg_backend_pid() and state <> 'idle'
          and state_change < now() - interval '2 seconds'`,
    )
  )[0]!.n;

const count = async (where: string, ids: string[]) =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from outbox where channel = 'EMAIL' and settlement_id = any($1)
          and ${where}`,
      [ids],
    )
  )[0]!.n;

describe('an SMTP server that takes 20 s to answer', () => {
  it('holds no database connection while it waits; settlement requests keep answering', async () => {
    const rests = restsOf(faults().replicas);
    await systemSlow('mail', SLOW_MS);
    const samples: { held: number; sending: number; status: number; ms: number }[] = [];
    let ids: string[] = [];
    try {
      ids = await Promise.all(
        Array.from({ length: SETTLEMENTS }, () => newSettlement(faults().urls.gateway, party)),
      );
      const log = { statuses: [] as number[] };
      await Promise.all(ids.map((id) => walk(rests, party, id, log)));
      expect(await count(`status = 'PENDING'`, ids)).toBeGreaterThanOrEqual(DUE_EMAILS);
      const watchEnd = Date.now() + WATCH_MS;
      while (Date.now() < watchEnd) {
        const started = Date.now();
        const answer = await call(
          rests[samples.length % rests.length]!,
          'GET',
          '/api/admin/settlements?limit=20',
          {
            token: party.admin,
          },
        );
        samples.push({
          held: await heldConnections(),
          sending: await count(`status = 'PENDING' and lease_until > now()`, ids),
          status: answer.status,
          ms: Date.now() - started,
        });
        await sleep(500);
      }
    } finally {
      await systemSlow('mail', 0);
    }
    console.log(`slow SMTP: ${JSON.stringify(samples)}`);
    // Messages were being sent (leased, waiting for the server) the whole time...
    expect(samples.every((s) => s.sending > 0)).toBe(true);
    // ...with no connection held for them, and the settlement subgraph answering meanwhile.
    expect(samples.map((s) => s.held)).toEqual(samples.map(() => 0));
    expect(samples.map((s) => s.status)).toEqual(samples.map(() => 200));
    expect(Math.max(...samples.map((s) => s.ms))).toBeLessThan(2_000);
    // Once the server answers, every message goes, each once (one Message-ID, one copy).
    const report = await checkInvariants({ settleMs: 90_000 });
    expect(report.problems).toEqual([]);
    const notSent = await db.query(
      `select id::text as id, event, status, attempts, last_error from outbox
        where channel = 'EMAIL' and settlement_id = any($1) and status <> 'SENT'`,
      [ids],
    );
    expect(notSent).toEqual([]);
  }, 180_000);
});
