import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LensUsageData, LensUsageRow } from '@campaign/schema';
import { cli } from '../support/cli.js';
import { graphqlOk, rest, stack } from '../support/clients.js';
import { callTool, newKey, useClients } from '../mcp/mcp-client.js';
import {
  addCredential,
  newAccount,
  recentDays,
  usageQuery,
  type Account,
} from './account-support.js';
import { expectError, profile, settled, useLensDatabase } from './engine-support.js';
import { expectDocumented, restOp } from './lens-client.js';

/** The answer's shape as the schema package declares it (the data of REST and of the tool). */
type UsageRow = LensUsageRow;
type Usage = LensUsageData;

const usagePath = (range: { from: string; to: string }) =>
  `/api/lens/v1/usage?from=${range.from}&to=${range.to}`;

describe('the usage view on every interface equals the ledger (issue 24, item 3)', () => {
  const sql = useLensDatabase();
  const open = useClients();
  let account: Account;
  let toolToken: string;
  let admin: string;

  beforeAll(async () => {
    account = await newAccount('--credits', '500', '--rate-limit', '100000');
    [toolToken, admin] = await Promise.all([
      addCredential(account.tenantId, 'mcp'),
      cli('auth:token', '--role', 'SUPER_ADMIN'),
    ]);
  });

  it('after concurrent calls on two credentials, refunds and a top-up', async () => {
    const client = await open(toolToken);
    const rested = async (handle: string) =>
      settled(account.restKey, await profile(account.restKey, { accountRef: { handle } }));
    const tool = (handle: string) =>
      callTool(client, 'lens_accounts_profile', { accountRef: { handle }, requestKey: newKey() });
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => rested(`usage.rest.${i}`)),
      // FAILED, everything refunded.
      ...Array.from({ length: 3 }, (_, i) => rested(`missing_usage${i}`)),
      // A list: the upper bound reserved, what was not delivered refunded.
      ...Array.from({ length: 2 }, () =>
        restOp('accounts.search', { search: 'min' }, account.restKey),
      ),
      ...Array.from({ length: 5 }, (_, i) => tool(`usage.mcp.${i}`)),
      ...Array.from({ length: 2 }, (_, i) => tool(`missing_tool${i}`)),
      graphqlOk(
        'mutation($t: ID!) { topUpCredits(tenantId: $t, amount: 40, reason: "usage test") }',
        { t: account.tenantId },
        admin,
      ),
    ]);
    // Every call settled (an answer after the sync budget may still be RUNNING).
    for (;;) {
      const [running] = await sql().query<{ n: number }>(
        `select count(*)::int as n from operation where tenant_id = $1 and status <> 'SUCCEEDED'
           and status <> 'FAILED'`,
        [account.tenantId],
      );
      if (running!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const range = recentDays();

    // GraphQL (the console's TENANT token), REST JSON, REST CSV and the MCP tool.
    const graph = (await graphqlOk<{ lensUsage: Usage }>(usageQuery, range, account.console))
      .lensUsage;
    const json = await rest<{ success: true; data: Usage }>('GET', usagePath(range), {
      token: account.restKey,
    });
    expect(json.status).toBe(200);
    expectDocumented('/usage', 'get', json);
    const csv = await fetch(`${stack().rest}${usagePath(range)}`, {
      headers: { authorization: `Bearer ${account.restKey}`, accept: 'text/csv' },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const tooled = await callTool(client, 'lens_usage', range);
    expect(tooled.isError).toBe(false);
    expect(json.body.data).toEqual(graph);
    expect(tooled.envelope as unknown).toEqual(graph);
    const [header, ...lines] = (await csv.text()).trimEnd().split('\r\n');
    expect(header).toBe(
      'day,credentialId,credentialKind,operationName,calls,succeeded,failed,charged,refunded',
    );
    expect(lines).toEqual(
      graph.rows.map((r) =>
        [r.day, r.credentialId, r.credentialKind, r.operationName, r.calls, r.succeeded]
          .concat([r.failed, r.charged, r.refunded])
          .join(','),
      ),
    );

    // The ledger, on its own: per (day, credential, operation) the operations that reserved,
    // what they were charged and what came back; the balance is the sum of every entry.
    const ledger = await sql().query<Omit<UsageRow, 'succeeded' | 'failed' | 'credentialKind'>>(
      `select to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
         o.credential_id as "credentialId", o.operation_name as "operationName",
         (count(*) filter (where l.kind = 'RESERVE'))::int as calls,
         (-sum(l.amount) filter (where l.kind = 'CHARGE'))::int as charged,
         (sum(l.amount) filter (where l.kind in ('RELEASE', 'CHARGE')))::int as refunded
       from credit_ledger_entry l join operation o on o.id = l.operation_id
       where l.tenant_id = $1 group by 1, 2, 3 order by 1, 2, 3`,
      [account.tenantId],
    );
    expect(
      graph.rows.map(({ day, credentialId, operationName, calls, charged, refunded }) => ({
        day,
        credentialId,
        operationName,
        calls,
        charged: charged,
        refunded,
      })),
    ).toEqual(ledger.map((row) => ({ ...row, charged: row.charged ?? 0 })));
    const [sum] = await sql().query<{ balance: number; topUps: number }>(
      `select sum(amount)::int as balance,
         (sum(amount) filter (where kind = 'TOP_UP'))::int as "topUps"
       from credit_ledger_entry where tenant_id = $1`,
      [account.tenantId],
    );
    expect(graph.balance).toBe(sum!.balance);
    expect(graph.balance).toBe(sum!.topUps - graph.totals.charged);
    expect(sum!.topUps).toBe(540);

    // What the test itself did, by credential: 13 REST calls (3 failed), 7 tool calls (2 failed).
    const byKind = (kind: string) => graph.rows.filter((r) => r.credentialKind === kind);
    const count = (rows: UsageRow[], field: 'calls' | 'failed' | 'succeeded') =>
      rows.reduce((n, r) => n + r[field], 0);
    expect([count(byKind('rest'), 'calls'), count(byKind('rest'), 'failed')]).toEqual([13, 3]);
    expect([count(byKind('mcp'), 'calls'), count(byKind('mcp'), 'failed')]).toEqual([7, 2]);
    expect(count(graph.rows, 'succeeded')).toBe(15);
    expect(graph.totals.calls).toBe(20);
    // The five failures refund their reservation in full (the searches may deliver everything).
    expect(graph.totals.refunded).toBeGreaterThanOrEqual(5);
    for (const row of graph.rows) {
      for (const n of [row.calls, row.succeeded, row.failed, row.charged, row.refunded])
        expect(Number.isInteger(n)).toBe(true);
    }
  });

  it('is free (no Idempotency-Key, no credits) and refuses bad ranges and tool tokens on REST', async () => {
    const range = recentDays();
    const before = await graphqlOk<{ creditBalance: number }>(
      '{ creditBalance }',
      {},
      account.restKey,
    );
    const first = await rest<{ data: Usage }>('GET', usagePath(range), { token: account.restKey });
    const second = await rest<{ data: Usage }>('GET', usagePath(range), { token: account.restKey });
    expect(second.body.data).toEqual(first.body.data);
    expect(first.body.data.balance).toBe(before.creditBalance);
    const refusals: [string, string][] = [
      [`/api/lens/v1/usage?to=${range.to}`, 'from: must be a date YYYY-MM-DD'],
      ['/api/lens/v1/usage?from=2026-01-01&to=2026-04-03', 'at most 92 days'],
      ['/api/lens/v1/usage?from=2026-02-02&to=2026-02-01', 'to must not be before from'],
    ];
    for (const [path, message] of refusals) {
      const refused = await rest<{ error: { message: string } }>('GET', path, {
        token: account.restKey,
      });
      expectDocumented('/usage', 'get', refused);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(message);
    }
    const tool = await rest('GET', usagePath(range), { token: toolToken });
    expect(tool.status).toBe(401);
    expectError(
      await profile(toolToken, { accountRef: { handle: 'x' } }, randomUUID()),
      401,
      'TOOL_TOKEN_NOT_ALLOWED',
      false,
    );
  });
});
