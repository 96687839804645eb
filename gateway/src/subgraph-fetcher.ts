import type { RemoteGraphQLDataSource } from '@apollo/gateway';
import { type Dispatcher, Pool, util } from 'undici';

type Fetcher = NonNullable<
  NonNullable<ConstructorParameters<typeof RemoteGraphQLDataSource>[0]>['fetcher']
>;

/** Keep-alive connections per subgraph: enough for the load one gateway sends (issue 14). */
const CONNECTIONS_PER_SUBGRAPH = 64;

/** What both engines send: a method, headers as a record or a Headers, a string body. */
export interface SubgraphRequestInit {
  method?: string;
  headers?: unknown;
  body?: unknown;
  signal?: AbortSignal | null;
}

/** The headers of a request as undici takes them: a record (Hive may hand a Headers). */
function headerRecord(headers: unknown): Record<string, string> {
  if (!headers) return {};
  if (typeof (headers as Headers).forEach === 'function' && !(headers instanceof Array)) {
    const record: Record<string, string> = {};
    (headers as Headers).forEach((value, key) => (record[key] = value));
    return record;
  }
  return headers as Record<string, string>;
}

/** A subgraph answer's headers as fetch's Headers reads them (lower-case names, joined repeats). */
class AnswerHeaders {
  constructor(private readonly raw: Record<string, unknown>) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()] as string | string[] | undefined;
    return Array.isArray(value) ? value.join(', ') : (value ?? null);
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  entries(): IterableIterator<[string, string]> {
    return Object.keys(this.raw)
      .map((name): [string, string] => [name, this.get(name)!])
      .values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(each: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.raw)) each(this.get(name)!, name);
  }
}

/**
 * The small part of a fetch Response that the engines read of a subgraph's JSON answer: status,
 * headers (get, has, entries, forEach), text and json. No stream: the subgraphs answer JSON.
 * Two objects whose methods live on their prototypes (issue 27: the closures of a plain object
 * were a dozen allocations per subgraph answer, for the adapter's garbage collector).
 */
class SubgraphAnswer {
  readonly ok: boolean;
  readonly statusText: string;
  readonly redirected = false;
  readonly headers: AnswerHeaders;

  constructor(
    readonly url: string,
    readonly status: number,
    raw: Record<string, unknown>,
    private readonly answerText: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.statusText = String(status);
    this.headers = new AnswerHeaders(raw);
  }

  async text(): Promise<string> {
    return this.answerText;
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.answerText) as unknown;
  }

  clone(): SubgraphAnswer {
    return this;
  }
}

/** A body's text as undici's `body.text()` decodes it: UTF-8, a leading byte-order mark skipped. */
function decode(chunks: readonly Buffer[], length: number): string {
  if (chunks.length === 0) return '';
  const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  return buffer.toString('utf8', bom ? 3 : 0);
}

/**
 * One subgraph answer read straight from undici's dispatch: the status, the headers as
 * `request()` parses them, the body's chunks. `request()` wraps each answer in an async resource
 * and a Readable stream that `text()` then drains (issue 27: about a tenth of the REST adapter's
 * allocations per call, for its garbage collector); the answer is small JSON, read whole. An
 * abort signal ends the request as `request()` would: before the connection, while waiting, or
 * mid-body, with the signal's reason.
 */
class AnswerReader implements Dispatcher.DispatchHandlers {
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private abort?: (reason?: Error) => void;
  private reason?: Error;
  private readonly stopListening?: () => void;

  constructor(
    private readonly url: string,
    private readonly resolve: (answer: SubgraphAnswer) => void,
    private readonly reject: (error: Error) => void,
    signal?: AbortSignal | null,
  ) {
    if (!signal) return;
    const onAbort = () => {
      this.reason = (signal.reason as Error | undefined) ?? new Error('This operation was aborted');
      this.abort?.(this.reason);
    };
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      this.stopListening = () => signal.removeEventListener('abort', onAbort);
    }
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.reason) abort(this.reason);
    else this.abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    // 1xx answers are informational: the final status and headers follow.
    if (status < 200) return true;
    this.status = status;
    this.headers = util.parseHeaders(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.length += chunk.length;
    return true;
  }

  onComplete(): void {
    this.stopListening?.();
    const text = decode(this.chunks, this.length);
    this.resolve(new SubgraphAnswer(this.url, this.status, this.headers, text));
  }

  onError(error: Error): void {
    this.stopListening?.();
    this.reject(error);
  }
}

/**
 * The engines' fetcher for their subgraphs: undici's keep-alive pool, one per subgraph origin.
 * Apollo's data source default (make-fetch-happen with agent-base, which builds an Error stack
 * per request) was 38-40 % of the gateway's CPU under load (issue 14); the Hive engine's default
 * (@whatwg-node/node-fetch over node:http, a ClientRequest and a WHATWG Response per call) about
 * 12 % of its (issue 27).
 */
export function subgraphFetcher(): {
  fetch: (url: string, init?: SubgraphRequestInit) => Promise<SubgraphAnswer>;
  fetcher: Fetcher;
  close: () => Promise<void>;
} {
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string) => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: CONNECTIONS_PER_SUBGRAPH });
      pools.set(origin, pool);
    }
    return pool;
  };
  // The engines send every request to one of a few subgraph URLs: each is parsed once.
  const targets = new Map<string, { pool: Pool; path: string }>();
  const targetOf = (url: string) => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { pool: poolFor(parsed.origin), path: `${parsed.pathname}${parsed.search}` };
      targets.set(url, target);
    }
    return target;
  };
  const fetch = (url: string, init?: SubgraphRequestInit) =>
    new Promise<SubgraphAnswer>((resolve, reject) => {
      const target = targetOf(url);
      target.pool.dispatch(
        {
          path: target.path,
          method: (init?.method ?? 'POST') as 'POST',
          headers: headerRecord(init?.headers),
          body: typeof init?.body === 'string' ? init.body : null,
        },
        new AnswerReader(url, resolve, reject, init?.signal),
      );
    });
  const close = async () => {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  };
  return { fetch, fetcher: fetch as unknown as Fetcher, close };
}
