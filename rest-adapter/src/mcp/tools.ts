import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  LENS_LIMITS,
  lensOperationList,
  typeName,
  type LensOperationContract,
} from '@campaign/schema';
import type { HttpError } from '../errors.js';
import { lensBodyValidator } from '../openapi.js';
import { standaloneSchema, type JsonSchema } from './json-schema.js';

/**
 * The MCP tools, one per lens operation declaration (`@campaign/schema` lensOperationList), the
 * same declarations the REST rows and the OpenAPI document are made from: a tool's input is the
 * REST body's schema plus `requestKey` (the Idempotency-Key), its output the REST envelope.
 */

/** The free status look-up (lens spec section 4, "Operation status"). */
export const STATUS_TOOL = 'lens_operations_status';

/** `accounts.taggedPosts` → `lens_accounts_taggedPosts` (DESIGN.md section 5). */
export const toolName = (operationName: string) => `lens_${operationName.replace(/\./g, '_')}`;

/** An operation's price in this deployment, as lens offers it (availableOperations). */
export interface Price {
  base: number;
  perItem: number;
}

export interface LensTool {
  name: string;
  contract: LensOperationContract;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** REST's own check of the body against the published document: same rules, same words. */
  validateBody: (body: unknown) => HttpError | null;
}

const KEY = LENS_LIMITS.idempotencyKey;
const REQUEST_KEY: JsonSchema = {
  type: 'string',
  minLength: KEY.min,
  maxLength: KEY.max,
  description:
    `Identifies this request (the Idempotency-Key of REST), ${KEY.min} to ${KEY.max} characters; ` +
    'a new one for every new request. To retry after a lost answer, send the same requestKey ' +
    'with the same arguments: the existing execution is returned (replayed: true), never run or ' +
    'charged twice. The same requestKey with other arguments is refused (409).',
};

function lensTool(contract: LensOperationContract): LensTool {
  const body = standaloneSchema(typeName(contract, 'Request'));
  const properties = body['properties'] as JsonSchema;
  const required = (body['required'] as string[] | undefined) ?? [];
  return {
    name: toolName(contract.name),
    contract,
    inputSchema: {
      ...body,
      properties: { ...properties, requestKey: REQUEST_KEY },
      required: [...required, 'requestKey'],
    },
    outputSchema: standaloneSchema(typeName(contract, 'Operation')),
    validateBody: lensBodyValidator(contract.path),
  };
}

/** Every lens data operation's tool, by tool name, in the order of lens spec section 4. */
export const lensTools: ReadonlyMap<string, LensTool> = new Map(
  lensOperationList.map((contract) => {
    const tool = lensTool(contract);
    return [tool.name, tool];
  }),
);

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** The cost, as docs/lens-engine.md section 3 states it, with this deployment's prices. */
function costText(tool: LensTool, price: Price): string {
  const paid = 'A failed run refunds everything; a replay (same requestKey) costs nothing more.';
  if (price.perItem === 0) return `Costs ${credits(price.base)} per call. ${paid}`;
  const input = tool.inputSchema['properties'] as Record<string, JsonSchema>;
  const most = input['pageSize']
    ? `pageSize, default ${String(input['pageSize']['default'])}`
    : input['accountRefs']
      ? 'the number of accountRefs'
      : 'the most items it can deliver';
  return (
    `Costs ${credits(price.base)} per call plus ${credits(price.perItem)} per item delivered: ` +
    `${price.base} + ${price.perItem} × (${most}) is reserved at the start, and what is not ` +
    `delivered is refunded (see credits in the answer). ${paid}`
  );
}

function pagingText(tool: LensTool): string {
  const input = tool.inputSchema['properties'] as Record<string, JsonSchema>;
  if (!input['cursor']) return '';
  const search = input['search']
    ? ' search filters the list and disables paging (send neither cursor nor pageSize with it).'
    : '';
  return (
    'Paged: send data.nextCursor back as cursor (same account, same token) for the next page; ' +
    `nextCursor null means there is none.${search}`
  );
}

/** What a model needs to choose and call the tool: result, cost, paging, what RUNNING means. */
export function describeTool(tool: LensTool, price: Price): string {
  return [
    tool.contract.summary,
    'Answers the operation envelope (operationId, operationName, status, data, error, credits, ' +
      `replayed); when status is SUCCEEDED, data is the ${tool.contract.result} of the output schema.`,
    costText(tool, price),
    pagingText(tool),
    `If status is RUNNING the work goes on: call ${STATUS_TOOL} with its operationId (free) ` +
      'until it is SUCCEEDED or FAILED; do not start a new request for it.',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The tool as tools/list shows it. */
export function listedTool(tool: LensTool, price: Price): Tool {
  return {
    name: tool.name,
    title: `lens ${tool.contract.name}`,
    description: describeTool(tool, price),
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    // Spends credits (not read-only) but changes nothing outside; a repeat with the same
    // requestKey has no further effect.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  };
}

export const statusTool: Tool = {
  name: STATUS_TOOL,
  title: 'lens operation status',
  description:
    'Free. The current envelope of an operation this token started earlier (any status): use ' +
    'it to follow a RUNNING operation until it is SUCCEEDED or FAILED, instead of starting a new ' +
    'request. An unknown id, or one of another tenant, is OPERATION_NOT_FOUND (404).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['operationId'],
    properties: {
      operationId: { type: 'string', description: 'The operationId of an earlier answer.' },
    },
  },
  outputSchema: standaloneSchema('Operation') as Tool['outputSchema'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
};
