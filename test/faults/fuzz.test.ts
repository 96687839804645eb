import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '@campaign/schema';
import { connectSql, type Sql } from '@campaign/stack';
import { cli, faults, until } from './support/fault-stack.js';
import {
  endpointsOf,
  requestOf,
  type Credentials,
  type Endpoint,
  type FuzzRequest,
} from './support/fuzz-requests.js';
import { checkInvariants } from './support/invariants.js';
import { rawRequest, type RawAnswer } from './support/raw.js';
import { changed, snapshot, snapshotQuery } from './support/snapshot.js';

/**
 * Issue 16: requests generated from the published OpenAPI documents (lens, and the admin,
 * partner, public and webhook document) against the running stack. Properties: no 5xx but the
 * documented ones; every refusal in the documented error shape with a catalogue code; a refused
 * request writes nothing. `npm run fuzz -- --runs N [--seed S]` runs longer (FUZZ_RUNS, FUZZ_SEED).
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 120);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123);

let endpoints: Endpoint[] = [];
let credentials: Credentials;
let lens: Sql;
let settlement: Sql;
let queries: { lens: string; settlement: string };

async function documentAt(path: string): Promise<Record<string, unknown> | null> {
  const response = await fetch(`${faults().urls.rest}${path}`);
  if (response.status !== 200) return null;
  return (await response.json()) as Record<string, unknown>;
}

const snapshotBoth = async () => ({
  lens: await snapshot(lens, queries.lens),
  settlement: await snapshot(settlement, queries.settlement),
});

/**
 * Waits until nothing started by an earlier request still writes (outbox, webhooks, 202 work):
 * no operation open and no message pending, the provider having decided and delivered all it
 * was asked (decided now, not after its delay), and both databases the same at two readings.
 */
async function quiet(): Promise<void> {
  await checkInvariants({ settleMs: 30_000 });
  const provider = faults().taxInvoice;
  let previous = '';
  await until(
    async () => {
      await (await fetch(`${provider}/_sim/decide-now`, { method: 'POST' })).arrayBuffer();
      const pending = (await (await fetch(`${provider}/_sim/pending`)).json()) as {
        decisions: number;
        deliveries: number;
      };
      const now = JSON.stringify(await snapshotBoth());
      const still = now === previous && pending.decisions === 0 && pending.deliveries === 0;
      previous = now;
      return still;
    },
    (still) => still,
    'nothing left in flight',
  );
}

/** What is wrong with one answer (empty: nothing). */
function problemsOf(request: FuzzRequest, answer: RawAnswer): string[] {
  const problems: string[] = [];
  const body = answer.body as { success?: unknown; error?: Record<string, unknown> } | null;
  const error = body?.error;
  const hasOperation = JSON.stringify(answer.body ?? null).includes('"operationId"');
  if (answer.status >= 500) {
    const documented =
      (answer.status === 503 && error?.['retryable'] === true) ||
      (answer.status === 500 && error?.['code'] === 'EXECUTION_FAILED' && hasOperation);
    if (!documented) problems.push(`undocumented ${answer.status}`);
  }
  // Every 503 says when to come back (issue 21).
  if (answer.status === 503 && !/^\d+$/.test(answer.headers['retry-after'] ?? ''))
    problems.push('503 without Retry-After');
  if (answer.status >= 400) {
    if (body?.success !== false || typeof error !== 'object' || error === null)
      problems.push('error body without {success: false, error}');
    else {
      if (!isErrorCode(error['code']))
        problems.push(`code ${String(error['code'])} not in the catalogue`);
      if (error['httpStatus'] !== answer.status)
        problems.push(`httpStatus ${String(error['httpStatus'])}`);
      if (typeof error['message'] !== 'string') problems.push('message is not a string');
      if (typeof error['retryable'] !== 'boolean') problems.push('retryable is not a boolean');
    }
  }
  return problems;
}

beforeAll(async () => {
  const lensDoc = await documentAt('/api/lens/v1/openapi.json');
  const settlementDoc = await documentAt('/api/openapi.json');
  expect(lensDoc, 'the lens document is published').not.toBeNull();
  endpoints = [
    ...endpointsOf(lensDoc!, '/api/lens/v1'),
    ...(settlementDoc ? endpointsOf(settlementDoc, '') : []),
  ].filter((e) => !e.path.endsWith('openapi.json'));
  if (!settlementDoc) console.log('fuzz: /api/openapi.json is not published; lens paths only');
  const [lensKey, mcpKey, superAdmin, admin, partner] = await Promise.all([
    cli('lens:create-key', '--credits', '100000', '--rate-limit', '100000'),
    cli('lens:create-key', '--kind', 'mcp', '--credits', '100', '--rate-limit', '100000'),
    cli('auth:token', '--role', 'SUPER_ADMIN'),
    cli('auth:token', '--role', 'ADMIN', '--agency', '1'),
    cli('auth:token', '--role', 'PARTNER', '--partner', '1'),
  ]);
  credentials = { lens: lensKey, mcp: mcpKey, superAdmin, admin, partner };
  lens = await connectSql(faults().urls.lensDatabase);
  settlement = await connectSql(faults().urls.settlementDatabase);
  queries = { lens: await snapshotQuery(lens), settlement: await snapshotQuery(settlement) };
  await quiet();
});

afterAll(async () => {
  await Promise.all([lens?.end(), settlement?.end()]);
});

describe('fuzzing from the OpenAPI documents', () => {
  it('documented answers only, and a refused request writes nothing', async () => {
    const seen: Record<string, number> = {};
    const arbitrary = fc
      .constantFrom(...endpoints)
      .chain((endpoint) =>
        requestOf(endpoint, credentials).map((request) => ({ endpoint, request })),
      );
    let wrote = false;
    console.log(`fuzz: ${endpoints.length} operations, ${RUNS} runs, seed ${SEED}`);
    // Every distinct finding of the run, by problem and operation (the first example of each).
    const findings = new Map<string, string>();
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ endpoint, request }) => {
        if (wrote) await quiet();
        const before = await snapshotBoth();
        const answer = await rawRequest(
          faults().urls.rest,
          request.method,
          request.path,
          request.headers,
          request.body,
        );
        const after = await snapshotBoth();
        seen[answer.status] = (seen[answer.status] ?? 0) + 1;
        const problems = problemsOf(request, answer);
        const refused =
          answer.status >= 400 && !JSON.stringify(answer.body ?? null).includes('"operationId"');
        const tables = [
          ...changed(before.lens, after.lens),
          ...changed(before.settlement, after.settlement),
        ];
        wrote = !refused && request.method !== 'GET';
        if (refused && tables.length)
          problems.push(`a refused request changed ${tables.join(', ')}`);
        for (const problem of problems) {
          const kind = `${problem.replace(/\d{3,}/g, 'N')} (${endpoint.method} ${endpoint.path}, ${answer.status})`;
          if (!findings.has(kind))
            findings.set(
              kind,
              `${request.method} ${request.path.slice(0, 200)} as ${request.role} → ` +
                `${JSON.stringify(answer.body).slice(0, 300)}`,
            );
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`fuzz: answers by status ${JSON.stringify(seen)}`);
    const report = [...findings].map(([kind, example]) => `${kind}\n    e.g. ${example}`);
    expect(report, `fuzz findings (seed ${SEED}, FUZZ_SEED=${SEED} to repeat)`).toEqual([]);
  });
});
