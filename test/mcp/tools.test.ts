import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cli } from '../support/cli.js';
import { restOp, type OperationName } from '../lens/lens-client.js';
import {
  ALL_TOOLS,
  callTool,
  newKey,
  OPERATION_NAMES,
  toolOf,
  useClients,
  VALID_BODIES,
} from './mcp-client.js';

/** nextCursor is signed for one tenant: everything else of an answer is the same data. */
function withoutCursor(data: unknown): unknown {
  if (!data || typeof data !== 'object') return data;
  const { nextCursor: _, ...rest } = data as Record<string, unknown>;
  return rest;
}

describe('lens over the tool protocol: discover and call every operation (issue 13)', () => {
  const open = useClients();
  let client: Client;
  let restKey: string;

  beforeAll(async () => {
    const [mcp, rest] = await Promise.all([
      cli('lens:create-key', '--kind', 'mcp', '--credits', '100000', '--rate-limit', '1000'),
      cli('lens:create-key', '--credits', '100000', '--rate-limit', '1000'),
    ]);
    expect(mcp).toMatch(/^lmcp_/);
    restKey = rest;
    client = await open(mcp);
  });

  it('lists one tool per operation, lens_operations_status and lens_usage, with schemas and costs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    for (const tool of tools.slice(0, -2)) {
      expect(tool.inputSchema.required).toContain('requestKey');
      expect(tool.outputSchema?.required).toEqual([
        'operationId',
        'operationName',
        'status',
        'credits',
        'replayed',
      ]);
      expect(tool.description).toMatch(/Costs \d+ credits? per call/);
    }
    const posts = tools.find((t) => t.name === 'lens_accounts_posts')!;
    expect(posts.description).toContain('1 + 1 × (pageSize, default 12) is reserved');
    expect(posts.description).toContain('nextCursor');
    expect(tools.at(-2)!.inputSchema.required).toEqual(['operationId']);
    expect(tools.at(-1)!.inputSchema.required).toEqual(['from', 'to']);
    expect(tools.at(-1)!.description).toMatch(/^Free/);
  });

  it.each(OPERATION_NAMES)(
    '%s: the same envelope, data and credits as REST for the same body',
    async (name) => {
      const body = VALID_BODIES[name]!;
      const [tool, rest] = await Promise.all([
        callTool(client, toolOf(name), { ...body, requestKey: newKey() }),
        restOp(name as OperationName, body, restKey),
      ]);
      expect(tool.isError, tool.text).toBe(false);
      expect(rest.status).toBe(200);
      const viaRest = rest.body.data!;
      expect(tool.envelope).toMatchObject({
        operationName: name,
        status: 'SUCCEEDED',
        replayed: false,
        credits: viaRest.credits,
      });
      expect(Object.keys(tool.envelope!).sort()).toEqual(Object.keys(viaRest).sort());
      expect(withoutCursor(tool.envelope!.data)).toEqual(withoutCursor(viaRest.data));
      // The observation time that REST sends as the Lens-Observed-At header.
      expect(tool.meta['lens/observedAt']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(tool.text).toContain(`${name} SUCCEEDED`);

      const status = await callTool(client, 'lens_operations_status', {
        operationId: tool.envelope!.operationId,
      });
      expect(status.isError).toBe(false);
      expect(status.envelope).toEqual({ ...tool.envelope, replayed: false });
    },
  );

  it('pages with the nextCursor a tool answered, as REST does', async () => {
    const first = await callTool(client, 'lens_accounts_followers', {
      ...VALID_BODIES['accounts.followers'],
      requestKey: newKey(),
    });
    const cursor = (first.envelope!.data as { nextCursor: string }).nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const second = await callTool(client, 'lens_accounts_followers', {
      ...VALID_BODIES['accounts.followers'],
      cursor,
      requestKey: newKey(),
    });
    expect(second.envelope!.status).toBe('SUCCEEDED');
    expect(second.envelope!.data).not.toEqual(first.envelope!.data);
  });
});
