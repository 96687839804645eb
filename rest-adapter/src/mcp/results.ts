import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorBody, ErrorCode } from '@campaign/schema';
import type { HttpError } from '../errors.js';
import { restEnvelope, type Envelope } from '../routes/lens.routes.js';
import { STATUS_TOOL } from './tools.js';

/**
 * Tool results. An operation answers its envelope as structured content (the REST envelope, the
 * tool's output schema) and, for clients that read only text, a sentence saying what to do next
 * plus the same JSON. A refusal (nothing was run) is an `isError` result with the catalogue's
 * code, HTTP-equivalent status and `retryable`, and advice a model can act on.
 */

/** Where a result carries what the closed envelope cannot (the REST headers' equivalents). */
export const META_OBSERVED_AT = 'lens/observedAt';
export const META_ERROR = 'lens/error';
export const META_RETRY_AFTER = 'lens/retryAfterSeconds';

/** Lens words for REST (headers, body) in words a tool caller knows. */
export function toolWords(message: string): string {
  return message.replace(/Idempotency-Key/g, 'requestKey').replace(/^body\b/, 'arguments');
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function nextStep(e: Envelope, statusLookup: boolean): string {
  const replayed = e.replayed
    ? ' (replayed: the existing execution, not run or charged again)'
    : '';
  switch (e.status) {
    case 'SUCCEEDED':
      return (
        `${e.operationName} SUCCEEDED${replayed}: ${e.credits.charged} charged, ` +
        `${e.credits.refunded} of ${e.credits.reserved} reserved refunded.`
      );
    case 'RUNNING':
    case 'RECONCILIATION_REQUIRED':
      return (
        `${e.operationName} is ${e.status}${replayed}: the work goes on. Call ${STATUS_TOOL} ` +
        `with operationId "${e.operationId}" (free) until it is SUCCEEDED or FAILED; do not ` +
        (statusLookup ? 'start a new request.' : 'call this tool again with a new requestKey.')
      );
    case 'FAILED': {
      const error = e.error;
      const retry = error?.retryable
        ? 'Retrying later may succeed, with a NEW requestKey: the same one returns this failure.'
        : 'Retrying will not change the outcome.';
      const why = error ? ` ${error.code} (HTTP ${error.httpStatus}): ${error.message}` : '';
      return `${e.operationName} FAILED${replayed}:${why} Every reserved credit was refunded. ${retry}`;
    }
  }
}

/**
 * An operation's envelope. A FAILED one is an error result, as REST answers it with the
 * failure's status; the status look-up answers any state as a result, as REST answers 200.
 */
export function envelopeResult(e: Envelope, statusLookup = false): CallToolResult {
  const envelope = restEnvelope(e);
  return {
    content: [
      { type: 'text', text: nextStep(e, statusLookup) },
      { type: 'text', text: json(envelope) },
    ],
    structuredContent: envelope,
    ...(e.observedAt ? { _meta: { [META_OBSERVED_AT]: e.observedAt } } : {}),
    ...(e.status === 'FAILED' && !statusLookup ? { isError: true } : {}),
  };
}

/** What to do about a refusal; nothing was run, so the same requestKey is safe to send again. */
const ADVICE: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'Fix the arguments and call again; nothing was run or charged.',
  INVALID_CURSOR:
    'Send a nextCursor exactly as this token received it, for the same operation and account, ' +
    'or leave cursor out for the first page.',
  UNAUTHENTICATED:
    'The connection needs a valid tool-protocol token (Authorization: Bearer lmcp_...); ask ' +
    'the user to configure one.',
  API_KEY_NOT_ALLOWED:
    'The connection is configured with a REST API key; ask the user for a tool-protocol ' +
    'token (lmcp_...).',
  INSUFFICIENT_CREDITS:
    'Insufficient credits: top up the balance (e.g. npm run cli -- lens:credits <token> ' +
    '--add N), then retry with the same requestKey; nothing was reserved.',
  OPERATION_DISABLED: 'This deployment has switched the operation off; do not retry.',
  PLAN_REQUIRED:
    "The token's plan does not include this operation; do not retry (a plan that includes it is needed).",
  PERMISSION_DENIED: 'This token may not call this operation; do not retry.',
  IDEMPOTENCY_KEY_REUSED:
    'This requestKey was used with other arguments: use a new requestKey for a new request ' +
    '(or send the original arguments to get that execution back).',
  OPERATION_NOT_FOUND:
    'No operation with this id for this token: use an operationId from an earlier answer.',
};

function advice(error: HttpError, statusLookup: boolean): string {
  const code = error.body.code as ErrorCode;
  const retryAfter = error.extensions['retryAfterSeconds'];
  if (code === 'RATE_LIMITED') {
    const wait = typeof retryAfter === 'number' ? `${retryAfter} seconds` : 'a while';
    return `Rate limited: wait ${wait}, then retry with the same requestKey.`;
  }
  const known = ADVICE[code];
  if (known) return known;
  if (!error.body.retryable) return 'Do not retry unchanged.';
  // A transport-like failure: whether the call got through is unknown (lens spec 7, rule 3).
  return statusLookup
    ? 'Retry shortly.'
    : 'Retry shortly with the same arguments and requestKey: a call that got through is ' +
        'returned, never run twice.';
}

/** A refusal before (or without) an operation: 4xx/5xx of REST as an error result. */
export function refusalResult(error: HttpError, statusLookup = false): CallToolResult {
  const body: ErrorBody = { ...error.body, message: toolWords(error.body.message) };
  const retryAfter = error.extensions['retryAfterSeconds'];
  return {
    content: [
      {
        type: 'text',
        text:
          `${body.code} (HTTP ${body.httpStatus}, retryable: ${body.retryable}): ${body.message} ` +
          advice(error, statusLookup),
      },
      { type: 'text', text: json({ error: body }) },
    ],
    _meta: {
      [META_ERROR]: body,
      ...(typeof retryAfter === 'number' ? { [META_RETRY_AFTER]: retryAfter } : {}),
    },
    isError: true,
  };
}
