import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

/**
 * The load generator of `npm run bench`, in a process of its own (apart from the stack, the
 * simulated upstream and the reference): bench/run.ts sends it one load at a time over IPC.
 * Templates in the body and headers: `{{uuid}}` a fresh value per request (an Idempotency-Key),
 * `{{key}}` and `{{handle}}` rotate over the given API keys and handles, `{{cursor}}` becomes
 * `,"cursor":"<the last answer's nextCursor>"` on a paged walk (empty on its first page).
 */
export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** How long to load; with `amount`, the number of requests instead (all answered). */
  durationS: number;
  amount?: number;
  /** At most this many requests a second over all connections (autocannon's overallRate). */
  rate?: number;
  keys?: string[];
  handles?: string[];
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers plus 2xx answers carrying GraphQL errors or `success: false`. */
  failed: number;
  sampleFailure: string | null;
}

interface Context {
  cursor?: string;
}

const NEXT_CURSOR = /"nextCursor":"([^"]+)"/;

function fill(template: string, n: number, spec: LoadSpec, context: Context, uuid: string) {
  return template
    .replaceAll('{{uuid}}', uuid)
    .replaceAll('{{key}}', spec.keys?.[n % spec.keys.length] ?? '')
    .replaceAll('{{handle}}', spec.handles?.[n % spec.handles.length] ?? '')
    .replaceAll('{{cursor}}', context.cursor ? `,"cursor":${JSON.stringify(context.cursor)}` : '');
}

async function load(spec: LoadSpec): Promise<LoadResult> {
  let n = 0;
  let failed = 0;
  let sampleFailure: string | null = null;
  const templated = Object.entries(spec.headers);
  const result = await autocannon({
    url: spec.url,
    method: spec.method,
    connections: spec.connections,
    duration: spec.durationS,
    ...(spec.amount ? { amount: spec.amount } : {}),
    ...(spec.rate ? { overallRate: spec.rate } : {}),
    requests: [
      {
        setupRequest: (request, context: Context) => {
          const i = n++;
          const uuid = randomUUID();
          const headers: Record<string, string> = {};
          for (const [name, value] of templated)
            headers[name] = fill(value, i, spec, context, uuid);
          return {
            ...request,
            headers,
            ...(spec.body ? { body: fill(spec.body, i, spec, context, uuid) } : {}),
          };
        },
        onResponse: (status, body, context: Context) => {
          const bad =
            status >= 300 || body.includes('"errors":[') || body.includes('"success":false');
          if (bad) {
            failed++;
            sampleFailure ??= `${status} ${body.slice(0, 300)}`;
          }
          context.cursor = NEXT_CURSOR.exec(body)?.[1];
        },
      },
    ],
  });
  const elapsedS = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    requests: result.requests.total,
    rps: result.requests.total / elapsedS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed,
    sampleFailure,
  };
}

process.on('message', (message: { id: number; spec: LoadSpec }) => {
  void load(message.spec).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
