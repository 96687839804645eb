import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { lensUsage, USAGE_DOCUMENT, usageParameters, type LensUsageData } from '@campaign/schema';
import { httpError, type HttpError } from '../errors.js';
import { usageVariables } from '../routes/lens-usage.routes.js';
import { standaloneSchema } from './json-schema.js';
import { refusalResult } from './results.js';

/** The usage view (`@campaign/schema` lens-usage.ts) as a free tool: `lens_usage`. */
export const USAGE_TOOL = lensUsage.tool;

export const usageTool: Tool = {
  name: USAGE_TOOL,
  title: 'lens account usage',
  description:
    `Free (no requestKey, no credits). ${lensUsage.summary} The figures are this token's ` +
    "account's, all its credentials included; structured content is the data of REST " +
    'GET /api/lens/v1/usage.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: usageParameters.map((p) => p.name),
    properties: Object.fromEntries(
      usageParameters.map((p) => [p.name, { ...p.schema, description: p.description }]),
    ),
  },
  outputSchema: standaloneSchema(lensUsage.result) as Tool['outputSchema'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
};

type Send = (
  document: string,
  variables: Record<string, unknown>,
) => Promise<{ data: { result: LensUsageData } } | { error: HttpError }>;

export async function callUsage(
  send: Send,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const extra = Object.keys(args).find((name) => name !== 'from' && name !== 'to');
  if (extra !== undefined) {
    return refusalResult(httpError('INVALID_REQUEST', `arguments: unknown property "${extra}"`));
  }
  const sent = await send(USAGE_DOCUMENT, usageVariables(args));
  if ('error' in sent) return refusalResult(sent.error);
  const data = sent.data.result;
  const { totals } = data;
  return {
    content: [
      {
        type: 'text',
        text:
          `Usage ${data.from} to ${data.to}: ${totals.calls} calls, ${totals.charged} credits ` +
          `charged, ${totals.refunded} refunded; balance now ${data.balance}.`,
      },
      { type: 'text', text: JSON.stringify(data, null, 2) },
    ],
    structuredContent: data as unknown as Record<string, unknown>,
  };
}
