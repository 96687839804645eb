/**
 * The JSON-over-HTTP call the HTTP adapters share: Node's fetch with a deadline that covers the
 * whole exchange (connection to last byte), so an outside system that hangs costs a known time.
 */

export type TransportFailure = 'TIMEOUT' | 'UNREACHABLE';

/** No HTTP answer at all: the adapter maps it to its port's "unavailable". */
export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface HttpCall {
  method?: 'GET' | 'POST';
  /** Sent as JSON when given. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The whole exchange; DEFAULT_TIMEOUT_MS unless the adapter is told otherwise. */
  timeoutMs?: number | undefined;
}

/** A person or a job waits on most outside calls: five seconds for the whole exchange. */
export const DEFAULT_TIMEOUT_MS = 5000;

export async function callHttp(url: string | URL, call: HttpCall): Promise<HttpAnswer> {
  const timeoutMs = call.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(url, {
      method: call.method ?? (call.body === undefined ? 'GET' : 'POST'),
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: parseJson(text) };
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new TransportError('TIMEOUT', `no answer within ${timeoutMs} ms`);
    }
    throw new TransportError('UNREACHABLE', `unreachable: ${describe(error)}`);
  }
}

/**
 * callHttp for an adapter: no answer at all (timeout, unreachable) is thrown as the port's own
 * error, made by `unavailable`; any HTTP answer is the adapter's to read.
 */
export async function callOutside(
  url: string | URL,
  call: HttpCall,
  unavailable: (error: TransportError) => Error,
): Promise<HttpAnswer> {
  try {
    return await callHttp(url, call);
  } catch (error) {
    if (error instanceof TransportError) throw unavailable(error);
    throw error;
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), when there is one. */
export function retryAfterSeconds(headers: Headers, now: number = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** fetch hides the network error in `cause` (ECONNREFUSED, ENOTFOUND, ...). */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
