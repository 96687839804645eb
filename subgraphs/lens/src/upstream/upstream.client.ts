import { Pool } from 'undici';
import { failureOf } from './upstream.failure.js';
import { UpstreamError } from './upstream.port.js';
import type { RawFailure } from './upstream.raw.js';

export interface HttpSocialUpstreamOptions {
  /** Where the platform's web JSON is served, e.g. the simulator's url. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** Per request, connection to last byte (default 10 s); past it the call is UNAVAILABLE. */
  timeoutMs?: number;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
/** The platform's web client id, which its web JSON endpoints expect. */
const WEB_APP_ID = '936619743392459';

export type Query = Record<string, string | number | string[] | null | undefined>;

/**
 * GETs one JSON object from the platform with undici's keep-alive pool and a timeout. Any failure
 * becomes an UpstreamError: error answers through `failureOf`, no answer in time, no connection
 * and a body that is not a JSON object as UNAVAILABLE.
 *
 * undici's `request`, not Node's `fetch` (the same undici underneath): fetch builds a WHATWG
 * Request, Headers, Response and body stream per call, which was about 9 % of the lens
 * subgraph's CPU on the billed path and much of its garbage (issue 27, docs/benchmarks.md).
 * Idle connections do not hold the process open (undici unrefs them).
 */
export class UpstreamJsonClient {
  private readonly baseUrl: string;
  private readonly pool: Pool;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(options: HttpSocialUpstreamOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.pool = new Pool(new URL(this.baseUrl).origin);
    this.headers = { accept: 'application/json', 'x-ig-app-id': WEB_APP_ID };
    if (options.token) this.headers.authorization = `Bearer ${options.token}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  }

  /** Closes the keep-alive connections (a stopping service). */
  close(): Promise<void> {
    return this.pool.close();
  }

  async get<T>(path: string, query: Query = {}): Promise<T> {
    // The URL as a whole, as before: the same escaping of what the path carries.
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value === null || value === undefined || value === '') continue;
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) url.searchParams.append(key, String(v));
    }
    let status: number;
    let text: string;
    try {
      // Connection to last byte: the signal also ends a body that stops half way.
      const response = await this.pool.request({
        method: 'GET',
        path: `${url.pathname}${url.search}`,
        headers: this.headers,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new UpstreamError(
          'UNAVAILABLE',
          `upstream did not answer within ${this.timeoutMs} ms`,
        );
      }
      throw new UpstreamError('UNAVAILABLE', `upstream unreachable: ${reason(error)}`);
    }
    const body = parseJson(text);
    if (status < 200 || status >= 300) throw failureOf(status, body);
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new UpstreamError(
        'UNAVAILABLE',
        `upstream answered HTTP ${status} without a JSON object`,
      );
    }
    if ((body as RawFailure).status === 'fail') throw failureOf(status, body);
    return body as T;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An error's own message, or its cause's when it has one (ECONNREFUSED, ...). */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
