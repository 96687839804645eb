import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { cli } from '../support/cli.js';
import { answerSlowNow } from '../support/clients.js';
import { TEST_SLOW_DELAY_MS, TEST_SYNC_BUDGET_MS } from '../support/test-stack.js';
import { callTool, newKey, useClients, type ToolAnswer } from './mcp-client.js';
import { eventually } from '../support/wait.js';

/**
 * Polls lens_operations_status, as the RUNNING answer tells a model to, until it is terminal. A
 * retryable refusal (the platform busy for a moment: 503) is retried, as its advice says; any
 * other refusal fails the test.
 */
async function followUntilTerminal(client: Client, operationId: string): Promise<ToolAnswer[]> {
  const seen: ToolAnswer[] = [];
  const read = async () => {
    const answer = await callTool(client, 'lens_operations_status', { operationId });
    if (answer.isError) expect(answer.error?.retryable, answer.text).toBe(true);
    else seen.push(answer);
    return answer.envelope?.status;
  };
  await eventually(
    read,
    (s) => s === 'SUCCEEDED' || s === 'FAILED',
    `${operationId} ended`,
    30_000,
    200,
  );
  return seen;
}

describe('past the sync budget: RUNNING, progress, then lens_operations_status (L4)', () => {
  const open = useClients();
  let client: Client;

  beforeAll(async () => {
    client = await open(await cli('lens:create-key', '--kind', 'mcp', '--credits', '100'));
  });

  it('a slow_ account answers RUNNING, tells the model what to do, and ends SUCCEEDED', async () => {
    expect(TEST_SLOW_DELAY_MS).toBeGreaterThan(TEST_SYNC_BUDGET_MS);
    const progress: Progress[] = [];
    const requestKey = newKey();
    const args = { accountRef: { handle: 'slow_mcp.account' }, requestKey };
    const running = await callTool(client, 'lens_accounts_profile', args, (p) => progress.push(p));
    expect(running.isError).toBe(false);
    expect(running.envelope).toMatchObject({
      status: 'RUNNING',
      replayed: false,
      credits: { reserved: 1, charged: 0, refunded: 0 },
    });
    expect(running.envelope!.data).toBeUndefined();
    const operationId = running.envelope!.operationId;
    expect(running.text).toContain(
      `Call lens_operations_status with operationId "${operationId}" (free)`,
    );
    // The client asked (progressToken): told at once, and every interval while lens waited.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(progress[0]!.message).toContain('accounts.profile: waiting for the result');

    await answerSlowNow(); // RUNNING is seen: the rest of the upstream's delay proves nothing
    const polled = await followUntilTerminal(client, operationId);
    const last = polled.at(-1)!;
    expect(last.envelope).toMatchObject({
      operationId,
      status: 'SUCCEEDED',
      replayed: false,
      credits: { reserved: 1, charged: 1, refunded: 0 },
    });
    expect(last.envelope!.data).toMatchObject({ handle: 'slow_mcp.account' });
    expect(polled.every((answer) => answer.envelope?.operationId === operationId)).toBe(true);

    // The same requestKey now returns the finished execution: never run twice.
    const replay = await callTool(client, 'lens_accounts_profile', args);
    expect(replay.envelope).toMatchObject({ operationId, status: 'SUCCEEDED', replayed: true });
  });

  it('a client that asked for no progress gets the same RUNNING answer', async () => {
    const running = await callTool(client, 'lens_accounts_about', {
      accountRef: { handle: 'slow_mcp.quiet' },
      requestKey: newKey(),
    });
    expect(running.envelope).toMatchObject({ status: 'RUNNING' });
    await answerSlowNow();
    const last = (await followUntilTerminal(client, running.envelope!.operationId)).at(-1)!;
    expect(last.envelope!.status).toBe('SUCCEEDED');
  });
});
