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
 * GETs one JSON object from the platform with Node's fetch and a timeout. Any failure becomes an
 * UpstreamError: error answers through `failureOf`, no answer in time, no connection and a body
 * that is not a JSON object as UNAVAILABLE.
 */
export class UpstreamJsonClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: HttpSocialUpstreamOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  }

  async get<T>(path: string, query: Query = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value === null || value === undefined || value === '') continue;
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) url.searchParams.append(key, String(v));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-ig-app-id': WEB_APP_ID,
    };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(this.timeoutMs) });
      status = response.status;
      text = await response.text();
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

/** fetch's "fetch failed" hides the useful part (ECONNREFUSED, ...) in `cause`. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
