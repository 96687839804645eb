import { z } from 'zod';
import { PlatformError } from './errors.js';
import { closed, ref, type Schema } from './lens-openapi-components.js';

/**
 * The usage view of a lens account (issue 24), declared once like the billed operations of
 * `lens-operations.ts`: its REST row (`GET /api/lens/v1/usage`), its path in the lens OpenAPI
 * document (an extension of the lens specification), its MCP tool (`lens_usage`) and the lens
 * subgraph's parsing of `lensUsage(from, to)` are all made from this. It is free: no
 * Idempotency-Key, no credits, no operation.
 */

/** At most this many days (from and to included) per request. */
export const LENS_USAGE_MAX_DAYS = 92;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayText = 'A UTC calendar day, YYYY-MM-DD (included).';

const day = z
  .string()
  .regex(DAY, { error: 'must be a date YYYY-MM-DD' })
  .refine(
    (value) => {
      const time = Date.parse(`${value}T00:00:00Z`);
      return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
    },
    { error: 'is not a calendar date' },
  )
  .meta({ description: dayText });

const MS_PER_DAY = 86_400_000;
const daysBetween = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY;

export const lensUsageInput = z
  .strictObject({ from: day, to: day })
  .refine((r) => daysBetween(r.from, r.to) >= 0, { error: 'to must not be before from' })
  .refine((r) => daysBetween(r.from, r.to) < LENS_USAGE_MAX_DAYS, {
    error: `at most ${LENS_USAGE_MAX_DAYS} days from from to to (both included)`,
  });

export type LensUsageRange = z.output<typeof lensUsageInput>;

export const lensUsage = {
  /** REST path under /api/lens/v1. */
  path: '/usage',
  /** The GraphQL query and the OpenAPI operationId. */
  field: 'lensUsage',
  tool: 'lens_usage',
  summary:
    'Usage per UTC day × credential × operation (calls, succeeded, failed, credits charged and ' +
    `refunded) and the balance, over at most ${LENS_USAGE_MAX_DAYS} days. Free: no ` +
    'Idempotency-Key, no credits. Not in the lens specification: an extension (issue 24).',
  /** `from` and `to` (query parameters on REST, arguments of the query and of the tool). */
  input: lensUsageInput,
  result: 'UsageData',
} as const;

/** The range, or 400 INVALID_REQUEST naming the first problem (`from: must be a date …`). */
export function parseUsageRange(raw: { from?: unknown; to?: unknown }): LensUsageRange {
  const parsed = lensUsageInput.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new PlatformError('INVALID_REQUEST', `${where}${issue.message}`);
}

/** The columns of a usage row, in the order of the JSON object and of the CSV. */
export const USAGE_ROW_FIELDS = [
  'day',
  'credentialId',
  'credentialKind',
  'operationName',
  'calls',
  'succeeded',
  'failed',
  'charged',
  'refunded',
] as const;

export interface LensUsageRow {
  day: string;
  credentialId: string;
  credentialKind: 'rest' | 'mcp' | 'oauth';
  operationName: string;
  calls: number;
  succeeded: number;
  failed: number;
  charged: number;
  refunded: number;
}

export interface LensUsageData {
  from: string;
  to: string;
  balance: number;
  rows: LensUsageRow[];
  totals: { calls: number; charged: number; refunded: number };
}

/** The GraphQL selection that is the `data` of REST and of the tool (DESIGN.md section 7). */
export const USAGE_SELECTION = `from to balance rows { ${USAGE_ROW_FIELDS.join(' ')} }
  totals { calls charged refunded }`;

export const USAGE_DOCUMENT = `query($from: String!, $to: String!) {
  result: ${lensUsage.field}(from: $from, to: $to) { ${USAGE_SELECTION} } }`;

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** RFC 4180 CSV: a header line, then one line per row (CRLF). */
export function usageCsv(data: LensUsageData): string {
  const lines = [USAGE_ROW_FIELDS.join(',')];
  for (const row of data.rows) lines.push(USAGE_ROW_FIELDS.map((f) => csvCell(row[f])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const int: Schema = { type: 'integer', minimum: 0 };
const rowProperties: Record<(typeof USAGE_ROW_FIELDS)[number], Schema> = {
  day: { type: 'string', format: 'date', description: 'The UTC day the calls were accepted.' },
  credentialId: { type: 'string', description: 'The credential (API key or token) that called.' },
  credentialKind: { type: 'string', enum: ['rest', 'mcp', 'oauth'] },
  operationName: { type: 'string', description: 'The lens operation, e.g. accounts.profile.' },
  calls: { ...int, description: 'Operations accepted (replays are not new calls).' },
  succeeded: int,
  failed: int,
  charged: { ...int, description: 'Credits charged.' },
  refunded: { ...int, description: 'Credits reserved and given back.' },
};

/** The OpenAPI components of the usage view (also the tool's output schema). */
export const usageSchemas: Record<string, Schema> = {
  UsageRow: closed(rowProperties),
  UsageData: closed({
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    balance: { ...int, description: 'The balance now.' },
    rows: { type: 'array', items: ref('UsageRow') },
    totals: closed({ calls: int, charged: int, refunded: int }),
  }),
  UsageResponse: closed({ success: { const: true }, data: ref('UsageData') }),
};

/** The query parameters of `GET /usage`, from the zod rule of each. */
export const usageParameters = (['from', 'to'] as const).map((name) => ({
  name,
  in: 'query',
  required: true,
  description: dayText,
  schema: { type: 'string', format: 'date', pattern: DAY.source },
}));
