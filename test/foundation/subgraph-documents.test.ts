import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServiceProcess } from '@campaign/stack';
import { startBeside } from '../support/beside.js';
import { cli } from '../support/cli.js';
import { stack } from '../support/clients.js';
import {
  adminToken,
  INDIVIDUAL_AMOUNTS,
  newSettlement,
  partnerAndAdvertiser,
} from '../settlement/support.js';

/**
 * The subgraphs' lean path (issue 27) on the real services: a REST adapter beside the stack sends
 * its fetches through a mirror that asks the subgraph twice, once as the gateway does (the lean
 * path) and once with an Accept only Apollo Server's pipeline takes (`application/*`, which it
 * answers with the same content type), and keeps every pair that differs in a byte: status,
 * headers or body. The rows are the benchmark's (a replay, an operation status, a settlement
 * detail) and their errors.
 */

/** Headers a mirror does not pass on (hop by hop) or compare (the time of the answer). */
const HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);
const UNCOMPARED = new Set(['date', 'connection', 'keep-alive']);

interface Mirror {
  server: Server;
  url: string;
  pairs: number;
  differences: string[];
}

async function mirror(target: string): Promise<Mirror> {
  const port = await freePort();
  const state = { url: `http://127.0.0.1:${port}/graphql`, pairs: 0, differences: [] as string[] };
  const ask = async (headers: IncomingHttpHeaders, body: string, accept?: string) => {
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      if (!HOP.has(name) && typeof value === 'string') sent[name] = value;
    if (accept) sent['accept'] = accept;
    const answer = await fetch(target, { method: 'POST', headers: sent, body });
    const kept = [...answer.headers].filter(([name]) => !UNCOMPARED.has(name));
    return { status: answer.status, headers: kept, body: await answer.text() };
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const lean = await ask(request.headers, body);
      const full = await ask(request.headers, body, 'application/*');
      state.pairs += 1;
      if (JSON.stringify(lean) !== JSON.stringify(full))
        state.differences.push(
          `${body}\n lean ${JSON.stringify(lean)}\n full ${JSON.stringify(full)}`,
        );
      response.writeHead(lean.status, Object.fromEntries(lean.headers));
      response.end(lean.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(state, { server });
}

describe("the subgraphs' lean path answers the benchmark's rows as Apollo Server does", () => {
  let lens: Mirror;
  let settlement: Mirror;
  let adapter: ServiceProcess;
  let restUrl: string;
  let apiKey: string;
  let admin: string;

  beforeAll(async () => {
    [lens, settlement] = await Promise.all([mirror(stack().lens), mirror(stack().settlement)]);
    const port = await freePort();
    restUrl = `http://127.0.0.1:${port}`;
    adapter = await startBeside('rest', 'rest adapter (mirrored subgraphs)', port, {
      LENS_SUBGRAPH_URL: lens.url,
      SETTLEMENT_SUBGRAPH_URL: settlement.url,
    });
    [apiKey, admin] = await Promise.all([cli('lens:create-key', '--credits', '100'), adminToken()]);
  });

  afterAll(async () => {
    await adapter?.stop();
    lens?.server.close();
    settlement?.server.close();
  });

  const call = (path: string, init: { token: string; body?: unknown; key?: string }) =>
    fetch(`${restUrl}${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${init.token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.key ? { 'idempotency-key': init.key } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  it('a replay of one key, an operation status, and their errors', async () => {
    const key = randomUUID();
    const body = { accountRef: { handle: 'minji.daily' } };
    // The first call on the stack's own adapter: the mirror would run it twice.
    const first = await fetch(`${stack().rest}/api/lens/v1/accounts/profile`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
    });
    expect(first.status).toBe(200);
    const { operationId } = ((await first.json()) as { data: { operationId: string } }).data;
    const replay = await call('/api/lens/v1/accounts/profile', { token: apiKey, body, key });
    expect(replay.status).toBe(200);
    const status = await call(`/api/lens/v1/operations/${operationId}`, { token: apiKey });
    expect(status.status).toBe(200);
    const unknown = await call(`/api/lens/v1/operations/${randomUUID()}`, { token: apiKey });
    expect(unknown.status).toBe(404);
    const reused = await call('/api/lens/v1/accounts/profile', {
      token: apiKey,
      body: { accountRef: { handle: 'another.handle' } },
      key,
    });
    expect(reused.status).toBeGreaterThanOrEqual(400);
    expect(lens.pairs).toBeGreaterThanOrEqual(4);
    expect(lens.differences).toEqual([]);
  });

  it('a settlement detail, and a missing one', async () => {
    const { partnerId, advertiserId } = await partnerAndAdvertiser(admin, 'INDIVIDUAL');
    const id = await newSettlement(admin, {
      partnerId,
      advertiserId,
      price: INDIVIDUAL_AMOUNTS.campaignPrice,
    });
    const detail = await call(`/api/admin/settlements/${id}`, { token: admin });
    expect(detail.status).toBe(200);
    const missing = await call(`/api/admin/settlements/${randomUUID()}`, { token: admin });
    expect(missing.status).toBe(404);
    expect(settlement.pairs).toBeGreaterThanOrEqual(2);
    expect(settlement.differences).toEqual([]);
    expect(lens.differences).toEqual([]);
  });
});
